import JSON
import LayoutEngine
import Synchronization
import Threads

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

/// Device profiles (docs/rules.md#device-profiles) in the database, served from an in-memory snapshot.
///
/// Reads (`profile(id:)`, `list`, `stored(id:)`) never touch the database: they copy an immutable snapshot
/// under a mutex. Writes run on the writer thread: refuse a built-in (from the snapshot), let the engine
/// check the precondition and commit (`StoreEngine.putProfile`: SQLite against the snapshot, PostgreSQL in
/// the database), then publish a new snapshot — so a reader sees the old or the new profile, never a mix.
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

    /// Slots, one per `LoopShard`: a caller passes its own shard (Service: the shard of the event loop that
    /// read the request, 0 for other threads), so that loops reading at once never share a slot's lock.
    public static let shardCount = LoopShard.count
    private let slots: [Slot]
    private let writer: StoreWriter
    private let engine: any StoreEngine
    /// Taken by every publication; counts the writer's (`generation`).
    private let publishing = Mutex<Int>(0)

    init(initial: [StoredProfile], writer: StoreWriter, engine: any StoreEngine) {
        let first = Snapshot(initial)
        slots = (0..<DeviceProfileStore.shardCount).map { _ in Slot(first) }
        self.writer = writer
        self.engine = engine
    }

    /// The profiles as the copy of `shard` holds them; `shard` is taken modulo `shardCount`.
    public func reader(shard: Int) -> Reader { Reader(slot: slots[shard & (DeviceProfileStore.shardCount - 1)]) }

    /// Shard 0's copy: the store's own reads, and the writer thread's (every copy holds the same profiles).
    private var current: Snapshot { slots[0].snapshot.withLock { $0 } }

    /// Makes the current snapshot with `id` replaced (the writer thread's, after a write) the one every reader
    /// sees, and counts it. The current snapshot is read under the lock, so a reload published just before
    /// is kept.
    private func publish(replacing id: String, with profile: StoredProfile?) {
        publishing.withLock { generation in
            let next = current.replacing(id, with: profile)
            for slot in slots { slot.snapshot.withLock { $0 = next } }
            generation += 1
        }
    }

    /// The count of the writer's publications: a reload that began before one may miss that write.
    var generation: Int { publishing.withLock { $0 } }

    /// Replaces every profile with what a reload read (the PostgreSQL listener, after a notification or a
    /// reconnection) — unless the writer published since `generation`, when the reload may predate the
    /// write: false, and the caller reads again. Without it, a reload begun before this replica's own write
    /// committed could hide that write from the next read on this replica.
    func replaceAll(_ profiles: [StoredProfile], ifGeneration expected: Int) -> Bool {
        publishing.withLock { generation in
            guard generation == expected else { return false }
            let next = Snapshot(profiles)
            for slot in slots { slot.snapshot.withLock { $0 = next } }
            return true
        }
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
        let submitted = writer.submit { [self] in completion(self.applyPut(profile, precondition)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Deletes a custom profile: `.notFound`, `.builtInReadOnly`, `.preconditionFailed`, `.closed`, `.sqlite`.
    public func delete(
        id: String, precondition: WritePrecondition = .unconditional,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] in completion(self.applyDelete(id: id, precondition)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Blocking `put`, for callers that may block (tests, CLI). Never from the writer thread.
    public func put(_ profile: DeviceProfile, precondition: WritePrecondition = .unconditional) throws(StoreError)
        -> PutResult
    {
        try writer.perform { [self] in self.applyPut(profile, precondition) }.get()
    }

    /// Blocking `delete`.
    public func delete(id: String, precondition: WritePrecondition = .unconditional) throws(StoreError) {
        try writer.perform { [self] in self.applyDelete(id: id, precondition) }.get()
    }

    // MARK: Writer thread

    /// Built-ins are refused here, from the snapshot (every replica and every engine holds the same
    /// built-ins); the precondition is the engine's to decide (`StoreEngine.putProfile`).
    private func applyPut(_ profile: DeviceProfile, _ precondition: WritePrecondition) -> Result<PutResult, StoreError>
    {
        let before = current.byID[profile.id]
        if let before, before.profile.builtIn { return .failure(.builtInReadOnly(id: profile.id)) }
        var p = profile
        p.builtIn = false
        let stored = DeviceProfileStore.stored(p)
        switch engine.putProfile(stored, precondition: precondition, current: before) {
        case .failure(let error): return .failure(error)
        case .success(let created):
            publish(replacing: p.id, with: stored)
            return .success(PutResult(created: created, stored: stored))
        }
    }

    private func applyDelete(id: String, _ precondition: WritePrecondition) -> Result<Void, StoreError> {
        let before = current.byID[id]
        if let before, before.profile.builtIn { return .failure(.builtInReadOnly(id: id)) }
        switch engine.deleteProfile(id: id, precondition: precondition, current: before) {
        case .failure(let error): return .failure(error)
        case .success:
            publish(replacing: id, with: nil)
            return .success(())
        }
    }

    // MARK: Rows

    /// The `meta` key of the built-in catalog version a database was seeded with (both engines).
    static let catalogVersionKey = "builtin_catalog_version"

    static func canonicalJSON(_ p: DeviceProfile) -> [UInt8] { JSONWriter.encode(p.json) }

    static func stored(_ p: DeviceProfile) -> StoredProfile {
        StoredProfile(profile: p, etag: EntityTag(canonicalBytes: canonicalJSON(p)))
    }

    /// A custom profile as an engine read it back (`id`, its stored JSON): the profile, or nil with a warning
    /// naming it when the JSON no longer parses or validates (a profile written by another version).
    static func decodeStored(id: String, json: String, warnings: inout [String]) -> DeviceProfile? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(json.utf8))
        } catch {
            warnings.append("device profile \"\(id)\" skipped: stored JSON does not parse (\(error))")
            return nil
        }
        let mapper = JSONMapper()
        guard let p = DeviceProfile.decode(value, mapper: mapper), p.id == id else {
            let issues = mapper.errors.map(\.description).joined(separator: "; ")
            warnings.append("device profile \"\(id)\" skipped: stored JSON no longer validates (\(issues))")
            return nil
        }
        return p
    }
}
