// The one source of the precompiled-header holders (cmake/Pch.cmake): the
// header itself is what they build.
