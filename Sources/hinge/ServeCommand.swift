import Glibc
import HTTPServer
import HingeCLI
import Service

/// `hinge serve`: runs the HTTP service until SIGTERM/SIGINT, then shuts down gracefully (exit 0).
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "run the HTTP service"
    static var usage: String { ServeOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try ServeOptions.parse(arguments, environment: environmentValue)
        let app: ServiceApp
        do {
            app = try ServiceApp.open(options: options)
        } catch {
            printErr("hinge serve: cannot open the database: \(error)")
            return 1
        }
        for warning in app.store?.warnings ?? [] { printErr("hinge serve: warning: \(warning)") }
        let server = app.makeServer()
        do {
            try server.start()
        } catch let e as SystemError where e.errno == EADDRINUSE {
            printErr(
                "hinge serve: cannot listen on \(options.host):\(options.port): the port is in use by another process")
            app.store?.close()
            return 1
        } catch {
            printErr("hinge serve: cannot listen on \(options.host):\(options.port): \(error)")
            app.store?.close()
            return 1
        }
        try TerminationSignals.onSignal { _ in server.shutdown() }
        if options.logLevel != .error {
            printErr(app.startupLine(port: server.port, threads: server.configuration.threads))
            if let line = app.pairingLine { printErr(line) }
        }
        server.wait()
        if options.logLevel != .error { printErr("hinge: stopped") }
        return 0
    }
}
