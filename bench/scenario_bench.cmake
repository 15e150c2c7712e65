ddblab_bench(scenario_bench SOURCES scenario_bench.cc DEPS ddblab_scenario)
