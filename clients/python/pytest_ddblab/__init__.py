"""pytest-ddblab: a local ddblab (DynamoDB emulator) for your pytest session.

The fixtures and options live in pytest_ddblab.plugin (loaded by the
`pytest11` entry point once the package is installed, or with
`-p pytest_ddblab.plugin`); this module exports the classes tests may name.
No state; see each module for ownership and thread-safety.
"""
from .control import DdblabControl, DdblabControlError
from .namespace import DdblabNamespace
from .server import DdblabNotFound, DdblabServer, find_binary

__all__ = ["DdblabControl", "DdblabControlError", "DdblabNamespace",
           "DdblabNotFound",
           "DdblabServer", "find_binary"]
