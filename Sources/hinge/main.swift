import Glibc
import HTTPServer

// `hinge serve` stops gracefully on SIGTERM/SIGINT: it blocks them first, before any thread exists, so every
// thread inherits the mask and one thread receives them (TerminationSignals). Every other subcommand keeps
// their default action: interrupted anywhere (reading a FIFO, a huge file), it ends at once.
if CommandLine.arguments.dropFirst().first == "serve" { TerminationSignals.block() }
let code = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
