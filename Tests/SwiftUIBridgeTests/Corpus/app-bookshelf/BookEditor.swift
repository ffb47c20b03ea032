import SwiftUI

// The editor shown by ShelfView: its toolbar and dismissal are read from here; its detents are held in a variable.
struct BookEditor: View {
    let book: Book
    @State private var detents: Set<PresentationDetent> = [.medium, .large]

    var body: some View {
        NavigationStack {
            Form {
                Text(book.title)
            }
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel", systemImage: "xmark") {}
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button {
                    } label: {
                        Label("Save", systemImage: "checkmark")
                    }
                }
            }
        }
        .presentationDetents(detents)
        .interactiveDismissDisabled()
    }
}
