// tests/harness/scenario/command_actors_test.cc: command actors and
// command checks in scenario files: parsed with copies and "{n}", refused
// with the path when a field is bad or a program cannot be found (as
// execvp looks: PATH, or the file's folder for "./x"), and a file that
// mixes them with pattern actors or asks what a command run cannot do.
#include "harness/scenario/command_actors.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness/scenario/run_command.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

// A scenario text with `actor` as its only actor and `invariant` as its
// only check.
std::string File(const std::string& actor,
                 const std::string& invariant =
                     R"({"check": "count", "table": "t", "equals": 0})") {
  return R"({"name": "cmd", "actors": [)" + actor + R"(], "invariants": [)" +
         invariant + R"(], "expect": "holds"})";
}

std::string Refusal(const std::string& text,
                    const std::string& file = "x.json") {
  Result<Scenario> s = ParseScenario(text, file);
  return s.ok() ? "(accepted)" : s.error().message;
}

TEST(CommandActorsTest, CopiesGetTheirNumberNameAndKey) {
  Result<Scenario> s = ParseScenario(
      File(R"({"name": "worker", "count": 2, "command": ["sh", "w.sh", "{n}"],
               "env": {"SLOT": "slot-{n}"}, "exit": "any"})",
           R"({"check": "command", "run": ["sh", "check.sh"]})"),
      "dir/x.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->actors.size(), 2u);
  EXPECT_EQ(s->folder, "dir");
  const ActorSpec& second = s->actors[1];
  EXPECT_EQ(second.name, "worker#2");
  EXPECT_EQ(second.pattern, kCommand);
  EXPECT_EQ(second.path, "actors[0]");
  EXPECT_EQ(second.command, (std::vector<std::string>{"sh", "w.sh", "2"}));
  EXPECT_EQ(second.env.at("SLOT"), "slot-2");
  EXPECT_TRUE(second.exit_any);
  EXPECT_EQ(ActorKey(second.name), "worker-2");
  EXPECT_TRUE(HasCommandActors(*s));
  EXPECT_EQ(s->invariants[0].run, (std::vector<std::string>{"sh", "check.sh"}));
  // Written back in the expanded form.
  EXPECT_EQ(ScenarioToJson(*s)["actors"][1].dump(),
            R"({"name":"worker#2","command":["sh","w.sh","2"],)"
            R"("env":{"SLOT":"slot-2"},"exit":"any"})");
}

TEST(CommandActorsTest, AProgramThatCannotBeFoundNamesThePath) {
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["pythn3", "w.py"]})")),
            "actors[0].command[0]: program 'pythn3' not found");
  EXPECT_EQ(
      Refusal(File(R"({"name": "w", "command": ["sh"]})",
                   R"({"check": "command", "run": ["./missing.sh"]})"),
              "some/dir/x.json"),
      "invariants[0].run[0]: program './missing.sh' not found (in some/dir)");
}

TEST(CommandActorsTest, ProgramsAreFoundAsExecvpFindsThem) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "cmd-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const std::string dir = pattern;
  {
    std::ofstream(dir + "/tool") << "#!/bin/sh\n";
    std::ofstream(dir + "/data") << "not a program\n";
  }
  chmod((dir + "/tool").c_str(), 0755);
  EXPECT_EQ(*FindProgram("./tool", dir), dir + "/./tool");
  EXPECT_EQ(FindProgram("./data", dir).error().message,
            "program './data' is not executable");
  // On PATH (an empty entry is the working directory).
  EXPECT_EQ(*FindProgram("tool", "/", dir.c_str()), dir + "/tool");
  EXPECT_EQ(*FindProgram("tool", dir, "/nonexistent::"), dir + "/tool");
  EXPECT_EQ(FindProgram("tool", "/", "/nonexistent").error().message,
            "program 'tool' not found");
  EXPECT_EQ(*FindProgram("/bin/sh", dir), "/bin/sh");
  std::filesystem::remove_all(dir);
}

TEST(CommandActorsTest, BadFieldsNameTheirPath) {
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": []})")),
            "actors[0].command: expected a non-empty list: the program and "
            "its arguments, got []");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh", 3]})")),
            "actors[0].command[1]: expected a string, got 3");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh"], "exit": "no"})")),
            "actors[0].exit: expected \"zero\" (a non-zero exit breaks the "
            "run) or \"any\", got \"no\"");
  EXPECT_EQ(
      Refusal(File(R"({"name": "w", "command": ["sh"], "env": {"A": 1}})")),
      "actors[0].env.A: expected a string, got 1");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh"], "ops": []})")),
            "actors[0].ops: a command actor has no ops (its program makes its "
            "calls)");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh"], "colour": 1})")),
            "actors[0].colour: unknown field (expected command, count, env, "
            "exit, name)");
  EXPECT_EQ(Refusal(File(R"({"name": "a b", "command": ["sh"]})")),
            "actors[0].name: a command actor's name is its access key: "
            "letters, digits, '-', '_' and '.' only, got \"a b\"");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh"]})",
                         R"({"check": "command"})")),
            "invariants[0].run: expected a non-empty list: the program and "
            "its arguments, got null");
}

TEST(CommandActorsTest, WhatACommandRunCannotDoIsRefused) {
  EXPECT_EQ(
      Refusal(R"({"name": "m", "actors": [
        {"name": "w", "command": ["sh"]},
        {"name": "s", "pattern": "script", "ops": [{"call": "ListTables", "request": {}}]}],
        "invariants": [{"check": "count", "table": "t", "equals": 0}],
        "expect": "holds"})"),
      "actors[1]: command actors cannot be mixed with pattern actors in one "
      "file (command actors run against a server ddblab run starts, pattern "
      "actors in process): write this one as a program too, or put it in a "
      "file of its own");
  EXPECT_EQ(Refusal(File(R"({"name": "w", "command": ["sh"]})",
                         R"({"check": "ordered_writes"})")),
            "invariants[0].check: a ordered_writes check reads what pattern "
            "actors did; with command actors use item_equals, count, sum or "
            "command");
  EXPECT_EQ(Refusal(R"({"name": "k", "actors": [
        {"name": "w-1", "command": ["sh"]},
        {"name": "w", "count": 1, "command": ["sh"]}],
        "invariants": [{"check": "count", "table": "t", "equals": 0}],
        "expect": "holds"})"),
            "actors[1].name: two actors would sign with the access key w-1: "
            "rename one");
}

TEST(CommandActorsTest, TheCommandRefusesRunsItCannotMakeWithExit2) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "cmd-refused.json").string();
  std::ofstream(path) << File(
      R"({"name": "w", "command": ["sh", "-c", "true"]})");
  for (const auto& [flag, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"--strategy", "exhaustive"}}) {
    std::vector<std::string> args = {path, flag};
    if (!value.empty()) args.push_back(value);
    std::ostringstream out, err;
    EXPECT_EQ(RunScenarioCommand(args, out, err), 2);
    EXPECT_EQ(err.str(), path + ": " +
                             (value.empty() ? flag : flag + " " + value) +
                             " is not available for command actors yet (they "
                             "run against a ddblab server that ddblab run "
                             "starts itself)\n");
  }
  // Without a server starter (ddblab-run), the run says where to go.
  std::ostringstream out, err;
  EXPECT_EQ(RunScenarioCommand(std::vector<std::string>{path}, out, err), 2);
  EXPECT_EQ(err.str(), path +
                           ": command actors run against a server that the "
                           "ddblab executable starts: use `ddblab run`\n");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ddblab::harness::scenario
