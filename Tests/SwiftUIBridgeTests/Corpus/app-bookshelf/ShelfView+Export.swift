import SwiftUI

// A @ViewBuilder helper whose detents depend on a condition only runtime knows.
extension ShelfView {
    @ViewBuilder var exportSheet: some View {
        if compact {
            ExportForm()
                .presentationDetents([.medium])
        } else {
            ExportForm()
                .presentationDetents([.large])
        }
    }
}

struct ExportForm: View {
    var body: some View {
        Form {
            Text("PDF")
            Text("EPUB")
        }
    }
}
