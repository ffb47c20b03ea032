import CLinux
import JSON
import LayoutEngine
import Synchronization

/// A device profile as stored: the profile and its entity tag.
public struct StoredProfile: Sendable, Equatable {
    public var profile: DeviceProfile
    /// Strong entity tag of the profile's canonical JSON (`"0123456789abcdef"`).
    public var etag: EntityTag
}

/// Result of a successful `put`: `created` → 201, else 200.
public struct PutResult: Sendable, Equatable {
    public var created: Bool
    public var stored: StoredProfile
}

/// Device profiles (docs/rules.md#device-profiles) in SQLite, served from an in-memory snapshot.
///
/// Reads (`profile(id:)`, `list`, `stored(id:)`) never touch SQLite: they copy an immutable snapshot under
/// a mutex. Writes run on the writer thread: check (built-in? the precondition?) against the snapshot,
/// commit, then publish a new snapshot — so a reader sees the old or the new profile, never a mix, and a
/// precondition check and its write are atomic with respect to other writers (there is one writer thread).
///
/// The snapshot is held in one slot per shard, each slot on its own cache lines: every resolve reads its
/// device here, and one mutex shared by both event loops moved its cache line between the cores on every
/// request. The caller names its shard: `reader(shard:)` (the service passes the event loop's shard); the
/// methods on the store itself read shard 0, for callers off the event loops (the CLI, tests). A write
/// publishes the new snapshot to every slot.
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
                    return (builtInOrder[a.profile.id] ?? .max, a.profile.id) < (
                        builtInOrder[b.profile.id] ?? .max, b.profile.id
                    )
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

    /// One copy of the snapshot per shard, padded so that two slots never share a cache line.
    fileprivate final class Slot: Sendable {
        let snapshot: Mutex<Snapshot>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        init(_ s: Snapshot) { snapshot = Mutex(s) }
    }

    /// The device profiles as one shard's copy of the snapshot holds them (all copies hold the same
    /// profiles): the `DeviceCatalog` a caller on one event loop reads, and the reads of `/v1/devices`.
    public struct Reader: DeviceCatalog, Sendable {
        fileprivate let slot: Slot

        var snapshot: Snapshot { slot.snapshot.withLock { $0 } }

        public func profile(id: String) -> DeviceProfile? { snapshot.byID[id]?.profile }
        public func allProfiles() -> [DeviceProfile] { snapshot.ordered.map(\.profile) }

        /// Every profile, or those of one `kind`: built-ins in catalog order, then custom profiles by id.
        public func list(kind: DeviceProfile.Kind? = nil) -> [StoredProfile] {
            let all = snapshot.ordered
            guard let kind else { return all }
            return all.filter { $0.profile.kind == kind }
        }

        /// The profile with this id and its tag; nil when there is none.
        public func stored(id: String) -> StoredProfile? { snapshot.byID[id] }

        public var count: Int { snapshot.byID.count }
    }

    /// Slots (a power of two): CLinux's `HINGE_THREAD_SHARDS`, the count of HTTPServer's `CounterShard`
    /// too, so that each event loop's shard has a slot of its own.
    public static let shardCount = Int(HINGE_THREAD_SHARDS)
    private let slots: [Slot]
    private let writer: StoreWriter

    init(initial: [StoredProfile], writer: StoreWriter) {
        let first = Snapshot(initial)
        slots = (0..<DeviceProfileStore.shardCount).map { _ in Slot(first) }
        self.writer = writer
    }

    /// The profiles as the copy of `shard` holds them; `shard` is taken modulo `shardCount`.
    public func reader(shard: Int) -> Reader { Reader(slot: slots[shard & (DeviceProfileStore.shardCount - 1)]) }

    /// Shard 0's copy: the store's own reads, and the writer thread's (every copy holds the same profiles).
    private var current: Snapshot { slots[0].snapshot.withLock { $0 } }

    /// Makes `next` the snapshot every reader sees (writer thread only: writes are serialised there).
    private func publish(_ next: Snapshot) {
        for slot in slots { slot.snapshot.withLock { $0 = next } }
    }

    // MARK: Reads on shard 0 (callers off the event loops)

    public func profile(id: String) -> DeviceProfile? { reader(shard: 0).profile(id: id) }
    public func allProfiles() -> [DeviceProfile] { reader(shard: 0).allProfiles() }
    public func list(kind: DeviceProfile.Kind? = nil) -> [StoredProfile] { reader(shard: 0).list(kind: kind) }
    public func stored(id: String) -> StoredProfile? { reader(shard: 0).stored(id: id) }
    public var count: Int { reader(shard: 0).count }

    // MARK: Writes

    /// Creates or replaces a custom profile (`profile.builtIn` is ignored: it is stored as custom). Errors:
    /// `.builtInReadOnly` when `id` is a built-in, `.preconditionFailed` when `precondition` does not hold for
    /// the current profile, `.closed`, `.sqlite`. The completion runs on the writer thread (or synchronously
    /// with `.closed`).
    public func put(
        _ profile: DeviceProfile, precondition: WritePrecondition = .unconditional,
        completion: @escaping @Sendable (Result<PutResult, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] db in completion(self.applyPut(profile, precondition, db: db)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Deletes a custom profile: `.notFound`, `.builtInReadOnly`, `.preconditionFailed`, `.closed`, `.sqlite`.
    public func delete(
        id: String, precondition: WritePrecondition = .unconditional,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] db in completion(self.applyDelete(id: id, precondition, db: db)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Blocking `put`, for callers that may block (tests, CLI). Never from the writer thread.
    public func put(_ profile: DeviceProfile, precondition: WritePrecondition = .unconditional) throws(StoreError)
        -> PutResult
    {
        try writer.perform { [self] db in self.applyPut(profile, precondition, db: db) }.get()
    }

    /// Blocking `delete`.
    public func delete(id: String, precondition: WritePrecondition = .unconditional) throws(StoreError) {
        try writer.perform { [self] db in self.applyDelete(id: id, precondition, db: db) }.get()
    }

    // MARK: Writer thread

    private func applyPut(_ profile: DeviceProfile, _ precondition: WritePrecondition, db: Connection)
        -> Result<PutResult, StoreError>
    {
        let before = current.byID[profile.id]
        if let before, before.profile.builtIn { return .failure(.builtInReadOnly(id: profile.id)) }
        if !precondition.holds(current: before?.etag) {
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

    private func applyDelete(id: String, _ precondition: WritePrecondition, db: Connection) -> Result<Void, StoreError>
    {
        guard let before = current.byID[id] else { return .failure(.notFound(id: id)) }
        if before.profile.builtIn { return .failure(.builtInReadOnly(id: id)) }
        if !precondition.holds(current: before.etag) {
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
        StoredProfile(profile: p, etag: EntityTag(canonicalBytes: canonicalJSON(p)))
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
            .text(s.etag.quoted), .int(now.millisecondsSinceEpoch))
    }

    static let catalogVersionKey = "builtin_catalog_version"

    /// Upserts the built-in catalog when the database holds an older catalog version (or none), and
    /// deletes built-ins the new catalog dropped. Custom profiles are never touched. A database seeded by
    /// a newer catalog is left as it is. Runs once at open, before the writer thread starts.
    static func seedBuiltIns(_ db: Connection, now: Timestamp) throws(StoreError) -> [String] {
        var warnings: [String] = []
        let stored = try db.scalarText("SELECT value FROM meta WHERE key = ?", .text(catalogVersionKey)).flatMap {
            Int($0)
        }
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
                out.append(StoredProfile(profile: p, etag: s.text(3).map(EntityTag.init(quoted:)) ?? stored(p).etag))
            }
            return (out, warnings)
        }
    }
}
