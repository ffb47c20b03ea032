import LayoutEngine
import Synchronization

/// Constant sets (docs/api.md#constant-sets) in the database, served from an in-memory snapshot.
///
/// Reads (`lookup`, `list`, `set`) never touch the database: a resolve naming a set reads its version here, on
/// the event loop. Writes run on the writer thread: the engine numbers and stores the new version in one
/// transaction (PostgreSQL under a row lock of the set, so that replicas never give one number twice) and the
/// snapshot takes it. With PostgreSQL each write sends `NOTIFY`, and every replica's listener reads the sets
/// again (`PostgresListener`). Versions are immutable and retirement is final, so a reload is merged into the
/// snapshot (the union of both): a reload that began before this replica's own write cannot hide it.
public final class ConstantSetStore: ConstantSetCatalog, Sendable {
    /// The sets by name, and the pins by the text a scene names them with (`acme@3`, and `acme` for the latest).
    private struct Snapshot {
        var sets: [String: ConstantSet] = [:]
        var pins: [String: ConstantSetPin] = [:]
        /// The last pin found and the text it was found by: a client pins one set, so most look-ups are a
        /// comparison of a few bytes instead of a hash.
        var last: (text: String, pin: ConstantSetPin)?

        mutating func set(_ s: ConstantSet) {
            last = nil
            sets[s.name] = s
            let retired = s.retiredAt != nil
            for v in s.versions { pins[v.reference] = ConstantSetPin(v, retired: retired) }
            if let latest = s.latest { pins[s.name] = ConstantSetPin(latest, retired: retired) }
        }
    }

    private let snapshot: Mutex<Snapshot>
    private let writer: StoreWriter
    private let engine: any StoreEngine

    /// At most this many versions per set, and sets per store (limits on what clients control).
    public static let maxVersions = 10_000
    public static let maxSets = 10_000

    init(initial: [ConstantSet], writer: StoreWriter, engine: any StoreEngine) {
        var first = Snapshot()
        for s in initial { first.set(s) }
        snapshot = Mutex(first)
        self.writer = writer
        self.engine = engine
    }

    // MARK: Reads

    public func lookup(_ reference: ConstantSetReference, includeRetired: Bool = false) -> ConstantSetLookup {
        guard let set = snapshot.withLock({ $0.sets[reference.name] }) else { return .unknownSet }
        if set.retiredAt != nil && !includeRetired { return .retired }
        guard let n = reference.version else { return set.latest.map { .found($0) } ?? .unknownSet }
        return set.version(n).map { .found($0) } ?? .unknownVersion(latest: set.latest?.version ?? 0)
    }

    public func pin(_ reference: ConstantSetReference, includeRetired: Bool = false) -> ConstantSetPin? {
        let found = snapshot.withLock { s -> ConstantSetPin? in
            if let last = s.last, last.text == reference.text { return last.pin }
            guard let pin = s.pins[reference.text] else { return nil }
            s.last = (reference.text, pin)
            return pin
        }
        guard let pin = found, includeRetired || !pin.retired else {
            return nil
        }
        return pin
    }

    /// Every set, by name; retired ones only with `includeRetired`.
    public func list(includeRetired: Bool = false) -> [ConstantSet] {
        snapshot.withLock { Array($0.sets.values) }.filter { includeRetired || $0.retiredAt == nil }.sorted {
            $0.name < $1.name
        }
    }

    /// The set `name`, retired or not; nil when there is none.
    public func set(_ name: String) -> ConstantSet? { snapshot.withLock { $0.sets[name] } }

    /// Merges what a reload read (the PostgreSQL listener) into the snapshot.
    func merge(_ loaded: [ConstantSet]) {
        snapshot.withLock { current in
            for s in loaded { current.set(current.sets[s.name].map { $0.merged(with: s) } ?? s) }
        }
    }

    // MARK: Writes

    /// Stores the next version of `name` made from `draft` (creating the set with its first version). Errors:
    /// `.retired` for a retired set, `.notFound` when `draft.basedOn` names no stored version, `.closed`, a
    /// database error. The completion runs on the writer thread (or at once with `.closed`).
    public func create(
        name: String, draft: ConstantSetDraft,
        completion: @escaping @Sendable (Result<ConstantSetVersion, StoreError>) -> Void
    ) {
        let submitted = writer.submit { [self] in completion(self.applyCreate(name: name, draft: draft)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Retires `name`: `.notFound` when there is no such set (or it was retired already).
    public func retire(name: String, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let submitted = writer.submit { [self] in completion(self.applyRetire(name: name)) }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Blocking `create`, for callers that may block (the CLI, tests). Never from the writer thread.
    public func create(name: String, draft: ConstantSetDraft) throws(StoreError) -> ConstantSetVersion {
        try writer.perform { [self] in self.applyCreate(name: name, draft: draft) }.get()
    }

    /// Blocking `retire`.
    public func retire(name: String) throws(StoreError) {
        try writer.perform { [self] in self.applyRetire(name: name) }.get()
    }

    private func applyCreate(name: String, draft: ConstantSetDraft) -> Result<ConstantSetVersion, StoreError> {
        var base: ConstantSetVersion?
        if let b = draft.basedOn, !b.isDefault {
            guard case .found(let v) = lookup(b, includeRetired: true) else {
                return .failure(.notFound(id: b.description))
            }
            base = v
        }
        if let current = set(name), current.retiredAt != nil { return .failure(.retired(name: name)) }
        if set(name) == nil, snapshot.withLock({ $0.sets.count }) >= ConstantSetStore.maxSets {
            return .failure(.invalidQuery(parameter: "name", detail: "at most \(ConstantSetStore.maxSets) sets"))
        }
        let now = Timestamp.now()
        let result = engine.insertConstantSetVersion(name: name, at: now) { number in
            draft.version(name: name, number: number, base: base, at: now)
        }
        if case .success(let stored) = result {
            merge([ConstantSet(name: name, createdAt: now, retiredAt: nil, versions: [stored])])
        }
        if case .failure(.retired) = result {
            merge([ConstantSet(name: name, createdAt: now, retiredAt: now, versions: [])])
        }
        return result
    }

    private func applyRetire(name: String) -> Result<Void, StoreError> {
        let now = Timestamp.now()
        let result = engine.retireConstantSet(name: name, at: now)
        if case .success = result {
            merge([ConstantSet(name: name, createdAt: now, retiredAt: now, versions: [])])
        }
        return result
    }
}
