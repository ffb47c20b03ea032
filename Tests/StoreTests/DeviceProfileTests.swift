import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Device profiles")
struct DeviceProfileTests {
    @Test func builtInsAreSeededValidAndCited() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        let ids = store.allProfiles().map(\.id)
        #expect(
            ids == [
                "iphone-se-3", "iphone-16", "iphone-16-pro-max", "ipad-mini", "ipad-pro-11", "ipad-pro-13",
                "iphone-duo",
            ])
        for p in store.allProfiles() {
            #expect(p.builtIn)
            // docs/rules.md#device-profiles: validation holds for every built-in: a round trip through JSON gives the
            // same profile.
            let mapper = JSONMapper()
            var decoded = DeviceProfile.decode(p.json, mapper: mapper)
            decoded?.builtIn = true
            #expect(mapper.errors.isEmpty, "\(p.id): \(mapper.errors)")
            #expect(decoded == p)
        }
        let duo = try #require(store.profile(id: "iphone-duo"))
        #expect(duo.kind == .foldable && duo.illustrative && duo.folds)
        let inner = try #require(duo.display(id: "inner"))
        #expect(inner.fold == Fold(orientation: .vertical, position: inner.width / 2, thickness: 0))
        #expect(duo.display(id: "outer")?.fold == nil)
        let max = try #require(store.profile(id: "iphone-16-pro-max")?.displays.first)
        #expect(max.landscapeSizeClass == SizeClassPair(horizontal: .regular, vertical: .compact))
        let sixteen = try #require(store.profile(id: "iphone-16")?.displays.first)
        #expect(sixteen.landscapeSizeClass == SizeClassPair(horizontal: .compact, vertical: .compact))
        #expect(sixteen.safeArea == Insets(top: 59, bottom: 34))
        let pad = try #require(store.profile(id: "ipad-pro-11")?.displays.first)
        #expect(pad.portraitSizeClass == pad.landscapeSizeClass)
        #expect(pad.safeArea == Insets(top: 24, bottom: 20))
        #expect(store.devices.list(kind: .tablet).map(\.profile.id) == ["ipad-mini", "ipad-pro-11", "ipad-pro-13"])
        #expect(store.devices.list(kind: .foldable).count == 1)
        #expect(store.devices.list(kind: .desktop).isEmpty)
    }

    /// The snapshot is kept per shard (one per event loop): a write must reach every shard's copy.
    @Test(arguments: EngineTarget.all) func writesReachTheSnapshotOfEveryThreadShard(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        _ = try store.devices.put(customProfile())
        for shard in 0..<10 {
            #expect(store.devices.reader(shard: shard).profile(id: "my-phone")?.name == "My Phone", "shard \(shard)")
        }
        try store.devices.delete(id: "my-phone")
        for shard in 0..<10 {
            #expect(store.devices.reader(shard: shard).profile(id: "my-phone") == nil, "shard \(shard)")
            #expect(store.devices.reader(shard: shard).profile(id: "iphone-16") != nil, "shard \(shard)")
        }
    }

    @Test(arguments: EngineTarget.all) func putCreatesThenReplacesWithETagsAndIfMatch(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let created = try store.devices.put(customProfile())
        #expect(created.created)
        #expect(
            created.stored.etag.quoted.hasPrefix("\"") && created.stored.etag.quoted.hasSuffix("\"")
                && created.stored.etag.quoted.count == 18)
        #expect(store.devices.stored(id: "my-phone")?.etag == created.stored.etag)
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        #expect(store.devices.count == BuiltInDevices.all.count + 1)

        // Same content → same tag; changed content → new tag.
        let same = try store.devices.put(customProfile())
        #expect(!same.created && same.stored.etag == created.stored.etag)
        #expect {
            _ = try store.devices.put(
                customProfile(name: "Stale"), precondition: .matching([EntityTag(quoted: "\"0000000000000000\"")]))
        } throws: { error in
            guard case .preconditionFailed(let id, let current) = error as? StoreError else { return false }
            return id == "my-phone" && current == created.stored.etag
        }
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        let replaced = try store.devices.put(
            customProfile(name: "Renamed"), precondition: .matching([created.stored.etag]))
        #expect(!replaced.created && replaced.stored.etag != created.stored.etag)
        #expect(store.profile(id: "my-phone")?.name == "Renamed")
        // No tag (what a weak If-Match leaves) never matches; `.anyCurrent` (`*`) matches any existing profile
        // but not a missing one.
        #expect(throws: StoreError.self) { _ = try store.devices.put(customProfile(), precondition: .matching([])) }
        _ = try store.devices.put(customProfile(name: "Star"), precondition: .anyCurrent)
        #expect(throws: StoreError.preconditionFailed(id: "new-one", current: nil)) {
            _ = try store.devices.put(customProfile("new-one"), precondition: .anyCurrent)
        }
        // builtIn in the body is ignored: a PUT always stores a custom profile.
        var claimsBuiltIn = customProfile("sneaky")
        claimsBuiltIn.builtIn = true
        _ = try store.devices.put(claimsBuiltIn)
        #expect(store.profile(id: "sneaky")?.builtIn == false)
    }

    /// `If-None-Match: *` semantics: create only; a second create of the same id fails with the current tag.
    @Test(arguments: EngineTarget.all) func absentCreatesOnlyOnce(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let first = try store.devices.put(customProfile(), precondition: .absent)
        #expect(first.created)
        #expect(throws: StoreError.preconditionFailed(id: "my-phone", current: first.stored.etag)) {
            _ = try store.devices.put(customProfile(name: "Second"), precondition: .absent)
        }
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        #expect(throws: StoreError.builtInReadOnly(id: "ipad-mini")) {
            _ = try store.devices.put(customProfile("ipad-mini"), precondition: .absent)
        }
    }

    @Test(arguments: EngineTarget.all) func customProfilesSurviveAReopen(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let put = try store.devices.put(customProfile(width: 420))
        store.close()
        let reopened = try database.open()
        defer { reopened.close() }
        #expect(reopened.devices.stored(id: "my-phone") == put.stored)
        #expect(reopened.devices.count == BuiltInDevices.all.count + 1)
    }

    @Test(arguments: EngineTarget.all) func builtInsAreReadOnly(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        #expect(throws: StoreError.builtInReadOnly(id: "iphone-16")) {
            _ = try store.devices.put(customProfile("iphone-16"))
        }
        #expect(throws: StoreError.builtInReadOnly(id: "iphone-16")) { try store.devices.delete(id: "iphone-16") }
        #expect(throws: StoreError.notFound(id: "nope")) { try store.devices.delete(id: "nope") }
        #expect(store.profile(id: "iphone-16")?.name == "iPhone 16")
    }

    @Test(arguments: EngineTarget.all) func deleteRemovesCustomProfilesAndHonoursIfMatch(_ engine: EngineTarget) throws
    {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let put = try store.devices.put(customProfile())
        #expect(throws: StoreError.preconditionFailed(id: "my-phone", current: put.stored.etag)) {
            try store.devices.delete(
                id: "my-phone", precondition: .matching([EntityTag(quoted: "\"deadbeefdeadbeef\"")]))
        }
        try store.devices.delete(id: "my-phone", precondition: .matching([put.stored.etag]))
        #expect(store.profile(id: "my-phone") == nil)
        #expect(throws: StoreError.notFound(id: "my-phone")) { try store.devices.delete(id: "my-phone") }
    }

    @Test(arguments: EngineTarget.all) func completionAPIsReportOnTheWriterThread(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<PutResult, StoreError>?>(nil)
        store.devices.put(customProfile()) { r in
            outcome.withLock { $0 = r }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try outcome.withLock { try $0?.get().created } == true)
    }

    @Test func customProfilesPersistAndBuiltInsAreUpsertedByCatalogVersion() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let first = try Store.open(.init(path: path))
        let put = try first.devices.put(customProfile())
        first.close()

        // Simulate a database seeded by an older catalog whose iPhone 16 had other numbers.
        var old = try #require(BuiltInDevices.all.first { $0.id == "iphone-16" })
        old.name = "iPhone 16 (old catalog)"
        let db = try rawConnection(path)
        try SQLiteProfiles.upsert(DeviceProfileStore.stored(old), into: db, now: .now())
        try db.run("UPDATE meta SET value = ? WHERE key = ?", .text("0"), .text(DeviceProfileStore.catalogVersionKey))
        try db.run(
            "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) SELECT ?, kind, 1, body, etag, 0 "
                + "FROM device_profiles WHERE id = ?", .text("iphone-retired"), .text("iphone-se-3"))
        db.close()

        let second = try Store.open(.init(path: path))
        defer { second.close() }
        #expect(second.profile(id: "iphone-16")?.name == "iPhone 16")
        #expect(second.profile(id: "iphone-retired") == nil)  // dropped from the catalog
        #expect(second.devices.stored(id: "my-phone") == put.stored)  // custom profile untouched
        #expect(second.warnings.isEmpty)
    }

    @Test func aCustomProfileShadowingANewBuiltInIdIsKeptWithAWarning() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        try Store.open(.init(path: path)).close()
        let db = try rawConnection(path)
        try db.run("DELETE FROM device_profiles WHERE id = ?", .text("ipad-mini"))
        try SQLiteProfiles.upsert(
            DeviceProfileStore.stored(customProfile("ipad-mini", name: "Mine")), into: db, now: .now())
        try db.run("UPDATE meta SET value = ? WHERE key = ?", .text("0"), .text(DeviceProfileStore.catalogVersionKey))
        db.close()
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        #expect(store.profile(id: "ipad-mini")?.name == "Mine")
        #expect(store.warnings.count == 1)
    }
}
