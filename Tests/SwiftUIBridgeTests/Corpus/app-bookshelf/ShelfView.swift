import SwiftUI

// An app's screen split over files: the editor is a view of its own (BookEditor.swift), the export sheet's content
// a helper in an extension (ShelfView+Export.swift); the about sheet's content and the settings modifier are
// declared where the reader cannot see them.
struct ShelfView: View {
    @State private var editing: Book?
    @State private var showsExport = false
    @State private var showsAbout = false
    @State private var showsSettings = false
    @State private var compact = true
    let books: [Book]

    var body: some View {
        NavigationStack {
            List(books) { book in
                BookRow(book: book)
                    .onTapGesture { editing = book }
            }
            .navigationTitle("Shelf")
            .sheet(item: $editing) { book in
                BookEditor(book: book)
            }
            .sheet(isPresented: $showsExport) {
                exportSheet
            }
            .sheet(isPresented: $showsAbout) {
                aboutContent
            }
            .settingsSheet(isPresented: $showsSettings)
        }
    }
}
