// swift-tools-version:6.0
import PackageDescription

// Modules and their direction of dependency: see CONTRIBUTING.md#modules.
//   hinge → Service → {HTTPServer, Store, Wireframe, LayoutEngine} ; Wireframe → {LayoutEngine, JSON} ;
//   LayoutEngine → JSON ; Store → {CSQLite, LayoutEngine, JSON}
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
        .target(name: "CLinux"),
        .target(name: "Store", dependencies: ["CSQLite", "CLinux", "LayoutEngine", "JSON"]),
        .target(name: "HTTPServer", dependencies: ["CLinux"]),
        // The SVG wireframe of a resolution, drawn from the response JSON.
        .target(name: "Wireframe", dependencies: ["LayoutEngine", "JSON"]),
        .target(
            name: "Service", dependencies: ["HTTPServer", "Store", "Wireframe", "LayoutEngine", "JSON"],
            // openapi.yaml (the repository root's, through a symlink) is compiled into the binary for GET /openapi.yaml.
            resources: [.embedInCode("Resources/openapi.yaml")]
        ),
        .executableTarget(name: "hinge", dependencies: ["Service"]),
        .executableTarget(
            name: "hinge-bench",
            dependencies: ["LayoutEngine", "JSON", "Store"],
            path: "Benchmarks/hinge-bench"
        ),
        // Helpers shared by the test targets (temporary directories, files, a loopback socket and HTTP client, a PRNG).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(
            name: "LayoutEngineTests", dependencies: ["LayoutEngine", "JSON", "TestSupport"], resources: [.copy("Scenes")]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "CLinux", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "WireframeTests", dependencies: ["Wireframe", "LayoutEngine", "JSON", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "Wireframe", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
