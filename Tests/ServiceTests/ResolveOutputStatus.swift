import Resolving

extension ResolveOutput {
    /// The status its answer carries: 200, or its problem document's.
    var status: Int { problemKind?.status ?? 200 }
}

extension MatrixOutput {
    /// The status its answer carries: 200, or its problem document's.
    var status: Int { output.status }
}
