import SwiftUI

// A row that presents a popover of its own, attached to the trailing edge of its info button.
struct BookRow: View {
    let book: Book
    @State private var showsInfo = false

    var body: some View {
        HStack {
            Text(book.title)
            Spacer()
            Button {
                showsInfo = true
            } label: {
                Image(systemName: "info.circle")
            }
            .popover(isPresented: $showsInfo, attachmentAnchor: .point(.trailing), arrowEdge: .leading) {
                BookInfo(book: book)
                    .presentationCompactAdaptation(.popover)
            }
        }
    }
}
