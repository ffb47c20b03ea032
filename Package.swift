// swift-tools-version:6.0
import PackageDescription

// Modules and their direction of dependency: see CONTRIBUTING.md#modules.
//   hinge → {HingeCLI, Service, HTTPServer, ArgumentScanning, Resolving} ;
//   HingeCLI → {Resolving, ArgumentScanning, Store, Wireframe, LayoutEngine, JSON, CLinux, Threads} ;
//   Service → {Resolving, HTTPServer, ArgumentScanning, Store, Wireframe, LayoutEngine, JSON, CLinux, Threads} ;
//   Resolving → {Store, Wireframe, LayoutEngine, JSON} ; Wireframe → {LayoutEngine, JSON} ;
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
        .target(name: "Resolving", dependencies: ["Store", "Wireframe", "LayoutEngine", "JSON"]),
        .target(
            name: "Service",
            dependencies: [
                "Resolving", "HTTPServer", "ArgumentScanning", "Store", "Wireframe", "LayoutEngine", "JSON", "CLinux",
                "Threads",
            ],
            // openapi.yaml (the repository root's, through a symlink) is compiled into the binary for GET /openapi.yaml;
            // Hinge Studio's files for GET / and /studio/… (StudioRoutes).
            resources: [.embedInCode("Resources/openapi.yaml"), .embedInCode("Studio")]
        ),
        // The subcommands' parsers and runners; the executable only wires and prints. Threads: `hinge lint`'s workers.
        .target(
            name: "HingeCLI",
            dependencies: [
                "Resolving", "ArgumentScanning", "Store", "Wireframe", "LayoutEngine", "JSON", "CLinux", "Threads",
            ]),
        .executableTarget(
            name: "hinge", dependencies: ["HingeCLI", "Service", "HTTPServer", "ArgumentScanning", "Resolving"]),
        .executableTarget(
            name: "hinge-bench",
            dependencies: ["LayoutEngine", "JSON", "Store"],
            path: "Benchmarks/hinge-bench"
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
            dependencies: ["HingeCLI", "Resolving", "ArgumentScanning", "Store", "LayoutEngine", "JSON", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
