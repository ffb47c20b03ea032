import SwiftUI

struct DocumentView: View {
    @State private var showsNoteEditor = false

    var body: some View {
        Button("Añadir anotación", systemImage: "square.and.pencil") {
            showsNoteEditor = true
        }
        .sheet(isPresented: $showsNoteEditor) {
            if #available(iOS 27.0, *) {
                NoteEditor()
                    .presentationPlacement(.trailing)
            } else {
                NoteEditor()
            }
        }
    }
}

private struct NoteEditor: View {
    @Environment(\.dismiss) private var dismiss
    @State private var text = ""

    var body: some View {
        NavigationStack {
            Form {
                TextField("Anotación", text: $text, axis: .vertical)
            }
            .navigationTitle("Nueva anotación")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cerrar", systemImage: "xmark") {
                        dismiss()
                    }
                }
            }
        }
    }
}
