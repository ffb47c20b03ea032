import HTTPServer
import LayoutEngine
import Store
import Testing

@testable import Service

/// The HTTP side of the store's routes: query parameters → `RecordQuery`, `If-Match`/`If-None-Match` →
/// entity-tag conditions.
@Suite struct HTTPMappingTests {
    @Test func queryItemsAreParsedAndValidated() throws {
        let q = try RecordQueryMapping.query(
            from: [
                ("device", "iphone-16"), ("status", "422"), ("code", "chained-modal"),
                ("since", "2025-01-31T09:05:07Z"),
                ("until", "2025-01-31T10:05:07.5+01:00"), ("limit", "500"), ("other", "x"),
            ].map { QueryItem(name: $0.0, value: $0.1) })
        #expect(q.device == "iphone-16" && q.status == 422 && q.code == "chained-modal" && q.limit == 500)
        #expect(q.since?.iso8601 == "2025-01-31T09:05:07.000Z")
        #expect(q.until?.iso8601 == "2025-01-31T09:05:07.500Z")
        for (name, value) in [
            ("limit", "501"), ("limit", "0"), ("status", "abc"), ("since", "yesterday"), ("cursor", "v1."),
        ] {
            #expect(throws: RecordQueryMapping.InvalidParameter.self, "\(name)=\(value)") {
                _ = try RecordQueryMapping.query(from: [QueryItem(name: name, value: value)])
            }
        }
        #expect(throws: RecordQueryMapping.InvalidParameter(parameter: "limit", detail: "expected 1…500, got \"0\"")) {
            _ = try RecordQueryMapping.query(from: [QueryItem(name: "limit", value: "0")])
        }
    }

    @Test func entityTagLists() {
        let b = EntityTag(quoted: "\"b\"")
        #expect(ConditionalRequest.writePrecondition(ifMatch: "\"a\", \"b\"").holds(current: b))
        #expect(!ConditionalRequest.writePrecondition(ifMatch: "W/\"b\"").holds(current: b))
        #expect(ConditionalRequest.writePrecondition(ifMatch: "W/\"b\"") == .matching([]))
        #expect(ConditionalRequest.ifNoneMatch("W/\"b\"", current: b))
        #expect(ConditionalRequest.writePrecondition(ifMatch: "*").holds(current: EntityTag(quoted: "\"x\"")))
        #expect(ConditionalRequest.writePrecondition(ifMatch: "W/\"b\", *") == .anyCurrent)
        #expect(!ConditionalRequest.writePrecondition(ifMatch: "*").holds(current: nil))
        #expect(ConditionalRequest.writePrecondition(ifMatch: nil) == .unconditional)
        #expect(!ConditionalRequest.ifNoneMatch("\"a\"", current: b))
        #expect(ConditionalRequest.ifNoneMatch("*", current: b))
    }

    /// The resolve routes read the catalog of the loop that read the request (`HTTPRequest.loopIndex`, passed
    /// explicitly): each loop's catalog sees a write, and a context without a store falls back to the catalog
    /// it was given.
    @Test func eachLoopsCatalogSeesTheStoresWrites() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        let context = ServiceContext(
            catalog: store, store: store, record: false, apiKey: nil, errorLog: ErrorLog(fileDescriptor: -1))
        var renamed = try #require(store.profile(id: "iphone-16"))
        renamed.id = "my-phone"
        renamed.name = "My Phone"
        _ = try store.devices.put(renamed)
        var request = HTTPRequest(method: .POST, path: "/v1/resolve")
        for loop in 0..<DeviceProfileStore.shardCount {
            request.loopIndex = loop
            #expect(context.catalog(for: request).profile(id: "my-phone")?.name == "My Phone", "loop \(loop)")
        }
        try store.devices.delete(id: "my-phone")
        for loop in 0..<DeviceProfileStore.shardCount {
            request.loopIndex = loop
            #expect(context.catalog(for: request).profile(id: "my-phone") == nil, "loop \(loop)")
        }
        let bare = ServiceContext(
            catalog: StaticDeviceCatalog([renamed]), store: nil, record: false, apiKey: nil,
            errorLog: ErrorLog(fileDescriptor: -1))
        #expect(bare.catalog(for: request).profile(id: "my-phone")?.name == "My Phone")
    }
}
