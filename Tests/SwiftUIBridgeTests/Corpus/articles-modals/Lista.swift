import SwiftUI

// Presenting by item: the optional is both the data and whether the sheet is up.
struct Lista: View {
    @State private var enEdicion: Tarea?  // por elemento, no por bandera
    let tareas: [Tarea]

    var body: some View {
        List(tareas) { tarea in
            Button(tarea.titulo) { enEdicion = tarea }
        }
        .sheet(item: $enEdicion) { tarea in
            EditorTarea(tarea: tarea)
        }
    }
}
