import JSON
import LayoutEngine
import Store

/// The outcome of replaying one record.
public enum ReplayOutcome: Sendable, Equatable {
    case unchanged
    case changed([Replay.Difference])
    /// Not replayed: a body was stored truncated, or the record was pruned meanwhile.
    case skipped(SkipReason)

    public enum SkipReason: String, Sendable, Equatable {
        case truncated = "truncated bodies"
        case gone = "pruned while replaying"
    }
}

extension Replay {
    /// Replays one stored record against `catalog` and compares the answers, as
    /// `POST /v1/requests/{id}/replay` does.
    /// A record resolved with a constant set version is resolved with that same version (versions are
    /// immutable; a retired set's stay readable), whatever its scene names now.
    public static func outcome(
        of record: RecordDetail, catalog: any DeviceCatalog, constantSets: (any ConstantSetCatalog)? = nil
    ) -> ReplayOutcome {
        if record.summary.requestTruncated || record.summary.responseTruncated { return .skipped(.truncated) }
        let context = ConstantSetContext(
            catalog: constantSets, pin: record.summary.constantSet.flatMap(ConstantSetReference.init),
            includeRetired: true)
        let replayed = run(
            Operation(recordedPath: record.summary.path), requestBody: record.requestBody, catalog: catalog,
            constantSets: context)
        let before =
            (try? JSONParser.parse(record.responseBody))
            ?? .string(String(decoding: record.responseBody, as: UTF8.self))
        let after = (try? JSONParser.parse(replayed.json)) ?? .null
        let differences = differences(before, after)
        return differences.isEmpty ? .unchanged : .changed(differences)
    }
}
