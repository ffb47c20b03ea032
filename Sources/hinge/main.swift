import Glibc
import HTTPServer

// Signals first, before any thread exists, so every thread inherits the blocked mask.
TerminationSignals.block()
let code = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
