import CLinux
import JSON
import LayoutEngine
import Synchronization

/// A device profile as stored: the profile and its entity tag.
public struct StoredProfile: Sendable, Equatable {
    public var profile: DeviceProfile
    /// Quoted strong entity tag (`"0123456789abcdef"`), for `ETag`, `If-None-Match` and `If-Match`.
    public var etag: String
}

/// Result of a successful `put`: `created` → 201, else 200.
public struct PutResult: Sendable, Equatable {
    public var created: Bool
    public var stored: StoredProfile
}

/// Device profiles (docs/rules.md#device-profiles) in SQLite, served from an in-memory snapshot.
///
/// Reads (`profile(id:)`, `list`, `stored(id:)`) never touch SQLite: they copy an immutable snapshot under
/// a mutex. Writes run on the writer thread: check (built-in? If-Match?) against the snapshot, commit,
/// then publish a new snapshot — so a reader sees the old or the new profile, never a mix, and an
/// If-Match check and its write are atomic with respect to other writers (there is one writer thread).
///
/// The snapshot is held in one slot per thread shard (the index each event loop sets for its counters,
/// `hinge_thread_shard_get`), each slot on its own cache lines: every resolve reads its device here, and one
/// mutex shared by both loops moved its cache line between the cores on every request. A write publishes
/// the new snapshot to every slot.
public final class DeviceProfileStore: DeviceCatalog, Sendable {
    final class Snapshot: Sendable {
        let byID: [String: StoredProfile]
        /// Built-ins in catalog order, then custom profiles by id.
        let ordered: [StoredProfile]

        init(_ profiles: [StoredProfile]) {
            var byID: [String: StoredProfile] = [:]
            for p in profiles { byID[p.profile.id] = p }
            self.byID = byID
            let builtInOrder = Dictionary(
                BuiltInDevices.all.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
            ordered = byID.values.sorted { a, b in
                switch (a.profile.builtIn, b.profile.builtIn) {
                case (true, false): return true
                case (false, true): return false
                case (true, true):
                    return (builtInOrder[a.profile.id] ?? .max, a.profile.id) < (builtInOrder[b.profile.id] ?? .max, b.profile.id)
                case (false, false): return a.profile.id < b.profile.id
                }
            }
        }

        func replacing(_ id: String, with p: StoredProfile?) -> Snapshot {
            var all = byID
            all[id] = p
            return Snapshot(Array(all.values))
        }
    }

    /// One copy of the snapshot per thread shard, padded so that two slots never share a cache line.
    private final class Slot: Sendable {
        let snapshot: Mutex<Snapshot>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        init(_ s: Snapshot) { snapshot = Mutex(s) }
    }

    /// One slot per thread shard: CLinux's `HINGE_THREAD_SHARDS` (a power of two), as HTTPServer's
    /// `CounterShard.count`.
    private static let slotCount = Int(HINGE_THREAD_SHARDS)
    private let slots: [Slot]
    private let writer: StoreWriter

    init(initial: [StoredProfile], writer: StoreWriter) {
        let first = Snapshot(initial)
        slots = (0..<DeviceProfileStore.slotCount).map { _ in Slot(first) }
        self.writer = writer
    }

    private var current: Snapshot {
        slots[Int(hinge_thread_shard_get())].snapshot.withLock { $0 }  // in 0..<slotCount: the C setter masks
    }

    /// Makes `next` the snapshot every reader sees (writer thread only: writes are serialised there).
    private func publish(_ next: Snapshot) {
        for slot in slots { slot.snapshot.withLock { $0 = next } }
    }

    // MARK: DeviceCatalog

    public func profile(id: String) -> DeviceProfile? { current.byID[id]?.profile }
    public func allProfiles() -> [DeviceProfile] { current.ordered.map(\.profile) }

    // MARK: Routes

    /// `GET /v1/devices[?kind=]`.
    public func list(kind: DeviceProfile.Kind? = nil) -> [StoredProfile] {
        let all = current.ordered
        guard let kind else { return all }
        return all.filter { $0.profile.kind == kind }
    }

    /// `GET /v1/devices/{id}`: nil → 404.
    public func stored(id: String) -> StoredProfile? { current.byID[id] }

    public var count: Int { current.byID.count }

    /// `PUT /v1/devices/{id}`: creates or replaces a custom profile (`profile.builtIn` is ignored: it is
    /// stored as custom). Errors: `.builtInReadOnly` (403) when `id` is a built-in, `.preconditionFailed`
    /// (412) when `ifMatch` (the raw `If-Match` header) does not match, `.closed`, `.sqlite`.
    /// The completion runs on the writer thread (or synchronously with `.closed`).
    public func put(
        _ profile: DeviceProfile, ifMatch: String? = nil,
        completion: @escaping @Sendable (Result<PutResult, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] db in completion(self.applyPut(profile, ifMatch: ifMatch, db: db)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// `DELETE /v1/devices/{id}`: `.notFound` (404), `.builtInReadOnly` (403), `.preconditionFailed` (412).
    public func delete(
        id: String, ifMatch: String? = nil, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] db in completion(self.applyDelete(id: id, ifMatch: ifMatch, db: db)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Blocking `put`, for callers that may block (tests, CLI). Never from the writer thread.
    public func put(_ profile: DeviceProfile, ifMatch: String? = nil) throws(StoreError) -> PutResult {
        try writer.perform { [self] db in self.applyPut(profile, ifMatch: ifMatch, db: db) }.get()
    }

    /// Blocking `delete`.
    public func delete(id: String, ifMatch: String? = nil) throws(StoreError) {
        try writer.perform { [self] db in self.applyDelete(id: id, ifMatch: ifMatch, db: db) }.get()
    }

    // MARK: Writer thread

    private func applyPut(_ profile: DeviceProfile, ifMatch: String?, db: Connection) -> Result<PutResult, StoreError> {
        let before = current.byID[profile.id]
        if let before, before.profile.builtIn { return .failure(.builtInReadOnly(id: profile.id)) }
        if let ifMatch, !EntityTag.ifMatch(ifMatch, current: before?.etag) {
            return .failure(.preconditionFailed(id: profile.id, current: before?.etag))
        }
        var p = profile
        p.builtIn = false
        let stored = DeviceProfileStore.stored(p)
        do {
            let changed = try db.transaction { () throws(StoreError) -> Int in
                try DeviceProfileStore.upsert(stored, into: db, now: Timestamp.now())
                return db.changes
            }
            // The upsert's WHERE clause keeps built-ins; the snapshot said custom, so this is belt and braces.
            guard changed == 1 else { return .failure(.builtInReadOnly(id: p.id)) }
        } catch {
            return .failure(error)
        }
        publish(current.replacing(p.id, with: stored))
        return .success(PutResult(created: before == nil, stored: stored))
    }

    private func applyDelete(id: String, ifMatch: String?, db: Connection) -> Result<Void, StoreError> {
        guard let before = current.byID[id] else { return .failure(.notFound(id: id)) }
        if before.profile.builtIn { return .failure(.builtInReadOnly(id: id)) }
        if let ifMatch, !EntityTag.ifMatch(ifMatch, current: before.etag) {
            return .failure(.preconditionFailed(id: id, current: before.etag))
        }
        do {
            try db.transaction { () throws(StoreError) in
                try db.run("DELETE FROM device_profiles WHERE id = ? AND built_in = 0", .text(id))
            }
        } catch {
            return .failure(error)
        }
        publish(current.replacing(id, with: nil))
        return .success(())
    }

    // MARK: Rows

    static func canonicalJSON(_ p: DeviceProfile) -> [UInt8] { JSONWriter.encode(p.json) }

    static func stored(_ p: DeviceProfile) -> StoredProfile {
        StoredProfile(profile: p, etag: EntityTag.of(canonicalBytes: canonicalJSON(p)))
    }

    /// Inserts or replaces `p`. An existing row is replaced only when its `built_in` equals the new one's:
    /// a custom PUT never overwrites a built-in, and seeding never overwrites a custom profile.
    static func upsert(_ s: StoredProfile, into db: Connection, now: Timestamp) throws(StoreError) {
        let body = String(decoding: canonicalJSON(s.profile), as: UTF8.self)
        try db.run(
            "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, body = excluded.body, etag = excluded.etag, "
                + "updated_at = excluded.updated_at WHERE device_profiles.built_in = excluded.built_in",
            .text(s.profile.id), .text(s.profile.kind.rawValue), .int(s.profile.builtIn ? 1 : 0), .text(body),
            .text(s.etag), .int(now.millisecondsSinceEpoch))
    }

    static let catalogVersionKey = "builtin_catalog_version"

    /// Upserts the built-in catalog when the database holds an older catalog version (or none), and
    /// deletes built-ins the new catalog dropped. Custom profiles are never touched. A database seeded by
    /// a newer catalog is left as it is. Runs once at open, before the writer thread starts.
    static func seedBuiltIns(_ db: Connection, now: Timestamp) throws(StoreError) -> [String] {
        var warnings: [String] = []
        let stored = try db.scalarText("SELECT value FROM meta WHERE key = ?", .text(catalogVersionKey)).flatMap { Int($0) }
        if let stored, stored >= BuiltInDevices.catalogVersion { return warnings }
        try db.transaction { () throws(StoreError) in
            let catalogIDs = Set(BuiltInDevices.all.map(\.id))
            let existing = try db.withStatement("SELECT id FROM device_profiles WHERE built_in = 1") {
                (s) throws(StoreError) -> [String] in
                var ids: [String] = []
                while try s.step() { ids.append(s.text(0) ?? "") }
                return ids
            }
            for id in existing where !catalogIDs.contains(id) {
                try db.run("DELETE FROM device_profiles WHERE id = ? AND built_in = 1", .text(id))
            }
            for p in BuiltInDevices.all {
                try upsert(DeviceProfileStore.stored(p), into: db, now: now)
                if db.changes == 0 {
                    warnings.append("built-in device \"\(p.id)\" is shadowed by a custom profile with the same id")
                }
            }
            try db.run(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .text(catalogVersionKey), .text(String(BuiltInDevices.catalogVersion)))
        }
        return warnings
    }

    /// Reads every stored profile. A row that no longer decodes (hand-edited, or validation tightened) is
    /// skipped with a warning rather than refusing to start; it stays in the database.
    static func loadAll(_ db: Connection) throws(StoreError) -> (profiles: [StoredProfile], warnings: [String]) {
        try db.withStatement("SELECT id, built_in, body, etag FROM device_profiles") {
            (s) throws(StoreError) -> ([StoredProfile], [String]) in
            var out: [StoredProfile] = []
            var warnings: [String] = []
            while try s.step() {
                let id = s.text(0) ?? ""
                let builtIn = s.bool(1)
                let body = s.text(2) ?? ""
                let value: JSONValue
                do {
                    value = try JSONParser.parse(Array(body.utf8))
                } catch {
                    warnings.append("device profile \"\(id)\" skipped: stored JSON does not parse (\(error))")
                    continue
                }
                let mapper = JSONMapper()
                guard var p = DeviceProfile.decode(value, mapper: mapper), p.id == id else {
                    let issues = mapper.errors.map(\.description).joined(separator: "; ")
                    warnings.append("device profile \"\(id)\" skipped: stored JSON no longer validates (\(issues))")
                    continue
                }
                p.builtIn = builtIn
                out.append(StoredProfile(profile: p, etag: s.text(3) ?? stored(p).etag))
            }
            return (out, warnings)
        }
    }
}
