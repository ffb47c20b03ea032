import SwiftUI

// A sheet whose content sets its detents, drag indicator, corner radius and a page size that fits its content's
// width only.
struct LibraryView: View {
    @State private var showingDetails = false

    var body: some View {
        Button("Mostrar detalles") {
            showingDetails = true
        }
        .sheet(isPresented: $showingDetails) {
            BookDetailsView()
        }
    }
}

struct BookDetailsView: View {
    var body: some View {
        Text("Detalles del libro")
            .presentationDetents([.medium, .large])
            .presentationDragIndicator(.visible)
            .presentationCornerRadius(28)
            .presentationSizing(
                .page
                    .fitted(horizontal: true, vertical: false)
            )
    }
}
