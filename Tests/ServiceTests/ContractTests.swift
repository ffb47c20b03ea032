import Glibc
import Store
import TestSupport
import Testing

@testable import Service

/// openapi.yaml (the repository root's) against what the service really registers and serves.
@Suite struct ContractTests {
    static let specPath: String = {
        // #filePath = <root>/Tests/ServiceTests/ContractTests.swift
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/openapi.yaml"
    }()

    /// Every `METHOD /path` under `paths:`, read line by line (no YAML library): a path is a key indented by
    /// two spaces that starts with `/`, an operation a key indented by four that is an HTTP method.
    static func specOperations(_ yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        var out: Set<String> = []
        var inPaths = false
        var path: String? = nil
        for raw in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                inPaths = line.hasPrefix("paths:")
                path = nil
                continue
            }
            guard inPaths else { continue }
            let key = content.prefix { $0 != ":" }
            if indent == 2 {
                path = key.hasPrefix("/") ? String(key) : nil
            } else if indent == 4, let path, methods.contains(String(key)) {
                out.insert("\(key.uppercased()) \(path)")
            }
        }
        return out
    }

    @Test func theReaderFindsOperations() {
        let yaml = """
            openapi: 3.1.0
            paths:
              /a:
                get:
                  summary: x
                parameters:
                  - {name: id}
                post: {}
              # comment
              /b/{id}:
                delete:
                  responses: {}
            components:
              /not-a-path:
                get: {}
            """
        #expect(Self.specOperations(yaml) == ["GET /a", "POST /a", "DELETE /b/{id}"])
    }

    @Test func everyServedRouteIsInTheSpecAndEverySpecPathIsServed() throws {
        let yaml = try #require(readFile(Self.specPath).map { String(decoding: $0, as: UTF8.self) })
        let spec = Self.specOperations(yaml)
        let directory = TemporaryDirectory()
        let store = try Store.open(Store.Configuration(path: directory.file("hinge.sqlite")))
        defer { store.close() }
        let app = ServiceApp(options: ServeOptions(), store: store)
        let served = Set(app.routes)
        #expect(app.routes.count == served.count, "a route is registered twice")
        #expect(served.subtracting(spec).sorted() == [], "served but missing from openapi.yaml")
        #expect(spec.subtracting(served).sorted() == [], "in openapi.yaml but not served")
        #expect(served.count >= 16)
    }

    @Test func openapiYamlIsServedByteForByte() throws {
        let file = try #require(readFile(Self.specPath))
        let s = try LiveServer()
        let r = try s.get("/openapi.yaml")
        #expect(r.status == 200)
        #expect(r.contentType.hasPrefix("application/yaml"))
        #expect(r.body == file)
        let head = try s.send("HEAD", "/openapi.yaml")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(file.count))
    }
}
