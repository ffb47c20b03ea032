// swift-tools-version:6.0
import PackageDescription

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory of the toolchain's own SwiftSyntax and SwiftParser (`usr/lib/swift/host`: `.swiftmodule`s and
/// `libSwiftSyntax.so`, `libSwiftParser.so`, …), found from the `swift` that builds this package: the manifest runs
/// as a child of `swift-build` or `swift-package`, which live in the toolchain's `usr/bin`. Failing that (another
/// parent), the first `swift` on `PATH` with its symbolic links resolved. docs/swiftui.md#toolchain.
func toolchainHostLibraries() -> String {
    func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
    func host(besides executable: String) -> String? {
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let lib = String(executable[..<slash]) + "/../lib/swift/host"
        guard access(lib + "/libSwiftSyntax.so", F_OK) == 0 || access(lib + "/libSwiftSyntax.dylib", F_OK) == 0
        else { return nil }
        return resolved(lib)
    }
    if let parent = resolved("/proc/\(getppid())/exe"), let lib = host(besides: parent) { return lib }
    if let path = getenv("PATH") {
        for dir in String(cString: path).split(separator: ":") {
            if let swift = resolved(dir + "/swift"), let lib = host(besides: swift) { return lib }
        }
    }
    return "/usr/lib/swift/host"
}
let swiftSyntaxHost = toolchainHostLibraries()

/// `HINGE_SWIFTUI=off` builds without SwiftUI reading (SwiftCodeModel, SwiftUIBridge, `hinge scenes`): for a binary
/// with the Swift runtime inside it (`--static-swift-stdlib`), since the parser's shared libraries bring the
/// toolchain's runtime with them (docs/swiftui.md#toolchain). Everything else is the same.
let readsSwiftUI = getenv("HINGE_SWIFTUI").map { String(cString: $0) } != "off"
let swiftUI: [Target.Dependency] = readsSwiftUI ? ["SwiftUIBridge"] : []
let swiftUIDefine: [SwiftSetting] = readsSwiftUI ? [.define("HINGE_SWIFTUI")] : []
/// The files of `hinge scenes` (and its tests), left out without SwiftUI reading.
let scenesCommand: [String] = readsSwiftUI ? [] : ["ScenesCommand.swift"]
let scenesCommandTests: [String] = readsSwiftUI ? [] : ["ScenesCommandTests.swift", "LintSwiftTests.swift"]
let swiftUITargets: [Target] =
    readsSwiftUI
    ? [
        // Swift files parsed with the toolchain's own parser and lowered to a plain model of view code: the
        // SwiftSyntax and SwiftParser libraries of the `swift` that builds the package, linked from its
        // `usr/lib/swift/host` and found there at run time (rpath), or beside the binary ($ORIGIN). Built with library
        // evolution and importing nothing else, so that the modules above it need not find SwiftSyntax's modules (the
        // `internal import`s of a module without it are required by every module that imports it).
        .target(
            name: "SwiftCodeModel",
            swiftSettings: [.unsafeFlags(["-I", swiftSyntaxHost, "-enable-library-evolution"])],
            linkerSettings: [
                .unsafeFlags([
                    "-L", swiftSyntaxHost, "-Xlinker", "-rpath", "-Xlinker", swiftSyntaxHost,
                    "-Xlinker", "-rpath", "-Xlinker", "$ORIGIN",
                ]),
                .linkedLibrary("SwiftSyntax"), .linkedLibrary("SwiftParser"),
            ]
        ),
        // SwiftUI source → scenes and scenes → SwiftUI (docs/swiftui.md). Threads: files are parsed on every core.
        .target(name: "SwiftUIBridge", dependencies: ["SwiftCodeModel", "LayoutEngine", "JSON", "Threads"]),
        .testTarget(
            name: "SwiftUIBridgeTests",
            dependencies: ["SwiftUIBridge", "LayoutEngine", "JSON", "Store", "TestSupport"],
            resources: [.copy("Corpus")]),
    ] : []

// Modules and their direction of dependency: see CONTRIBUTING.md#modules.
//   hinge → {HingeCLI, Service, HTTPServer, ArgumentScanning, Resolving} ;
//   HingeCLI → {Resolving, ArgumentScanning, Store, Wireframe, LayoutEngine, JSON, CLinux, Threads, SwiftUIBridge} ;
//   SwiftUIBridge → {SwiftCodeModel, LayoutEngine, JSON, Threads} ; SwiftCodeModel → the toolchain's SwiftSyntax, SwiftParser ;
//   Service → {Resolving, HTTPServer, ArgumentScanning, Store, Wireframe, LayoutEngine, JSON, CLinux, Threads} ;
//   Resolving → {Store, Wireframe, LayoutEngine, JSON, SwiftUIBridge} ; Wireframe → {LayoutEngine, JSON} ;
//   LayoutEngine → JSON ; Store → {CSQLite, CPostgreSQL, CLinux, Threads, LayoutEngine, JSON} ; HTTPServer → {CLinux, Threads} ;
//   Threads → CLinux
let package = Package(
    name: "Hinge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hinge", targets: ["hinge"]),
        .executable(name: "hinge-bench", targets: ["hinge-bench"]),
    ],
    targets: [
        .target(name: "JSON", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "LayoutEngine", dependencies: ["JSON"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpq, the PostgreSQL client library: the PostgreSQL engine of the store (--db postgres://…).
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "CLinux"),
        // One named, joinable OS thread: the event loops' and the store's.
        .target(name: "Threads", dependencies: ["CLinux"]),
        .target(
            name: "Store", dependencies: ["CSQLite", "CPostgreSQL", "CLinux", "Threads", "LayoutEngine", "JSON"]),
        .target(name: "HTTPServer", dependencies: ["CLinux", "Threads"]),
        // The one scanner of every subcommand's arguments (`hinge serve`'s included).
        .target(name: "ArgumentScanning"),
        // The SVG wireframe of a resolution, drawn from the response JSON.
        .target(name: "Wireframe", dependencies: ["LayoutEngine", "JSON"]),
        // The application core: resolve, matrix, replay and their problems as domain values — no HTTP.
        // SwiftUIBridge (unless HINGE_SWIFTUI=off): scenes from SwiftUI source and SwiftUI from a scene.
        .target(
            name: "Resolving", dependencies: ["Store", "Wireframe", "LayoutEngine", "JSON"] + swiftUI,
            swiftSettings: swiftUIDefine),
        .target(
            name: "Service",
            dependencies: [
                "Resolving", "HTTPServer", "ArgumentScanning", "Store", "Wireframe", "LayoutEngine", "JSON", "CLinux",
                "Threads",
            ],
            // openapi.yaml (the repository root's, through a symlink) is compiled into the binary for GET /openapi.yaml;
            // Hinge Studio's files for GET / and /studio/… (StudioRoutes).
            resources: [.embedInCode("Resources/openapi.yaml"), .embedInCode("Studio")],
            swiftSettings: swiftUIDefine
        ),
        // The subcommands' parsers and runners; the executable only wires and prints. Threads: `hinge lint`'s workers.
        .target(
            name: "HingeCLI",
            dependencies: [
                "Resolving", "ArgumentScanning", "Store", "Wireframe", "LayoutEngine", "JSON", "CLinux", "Threads",
            ] + swiftUI, exclude: scenesCommand, swiftSettings: swiftUIDefine),
        .executableTarget(
            name: "hinge", dependencies: ["HingeCLI", "Service", "HTTPServer", "ArgumentScanning", "Resolving"],
            exclude: scenesCommand, swiftSettings: swiftUIDefine),
        .executableTarget(
            name: "hinge-bench",
            dependencies: ["LayoutEngine", "JSON", "Store"] + swiftUI,
            path: "Benchmarks/hinge-bench",
            swiftSettings: swiftUIDefine
        ),
        // Helpers shared by the test targets (temporary directories, files, a loopback socket and HTTP client, a PRNG).
        .target(name: "TestSupport", dependencies: ["Threads"], path: "Tests/TestSupport"),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads", "TestSupport"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(
            name: "LayoutEngineTests", dependencies: ["LayoutEngine", "JSON", "TestSupport"],
            resources: [.copy("Scenes")]),
        // Fixtures: a database written by an earlier schema, for the migration test (Tests/StoreTests/Fixtures/README.md).
        .testTarget(
            name: "StoreTests", dependencies: ["Store", "CLinux", "LayoutEngine", "JSON", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Threads", "TestSupport"]),
        .testTarget(
            name: "ResolvingTests", dependencies: ["Resolving", "Store", "LayoutEngine", "JSON", "TestSupport"]),
        .testTarget(name: "WireframeTests", dependencies: ["Wireframe", "LayoutEngine", "JSON", "TestSupport"]),
        // HingeCLI: one live test checks that `hinge resolve --format svg` prints the server's bytes.
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "Service", "Resolving", "ArgumentScanning", "Wireframe", "HingeCLI", "Threads", "TestSupport",
            ]),
        .testTarget(
            name: "HingeCLITests",
            dependencies: [
                "HingeCLI", "Resolving", "ArgumentScanning", "Store", "LayoutEngine", "JSON", "TestSupport",
            ], exclude: scenesCommandTests),
    ] + swiftUITargets,
    swiftLanguageModes: [.v6]
)
