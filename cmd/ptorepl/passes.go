package main

// passCommands are the pass-stepping commands (:passes, :step, :stage,
// :diff, :pto, :manifest, :run).
func passCommands() map[string]metaCommand { return map[string]metaCommand{} }

type stepper struct{}
