import SwiftUI

// The adaptive panel pattern: a bottom panel that becomes a side panel at 700 points, as a reusable modifier.
struct AdaptivePanelModifier<Panel: View>: ViewModifier {
    @Binding var isPresented: Bool
    let breakpoint: CGFloat
    @ViewBuilder let panel: () -> Panel

    func body(content: Content) -> some View {
        GeometryReader { proxy in
            let usesSidePanel = proxy.size.width >= breakpoint
            ZStack {
                content
                if isPresented {
                    if usesSidePanel {
                        HStack(spacing: 0) {
                            Spacer()
                            panel()
                                .frame(width: 360)
                                .frame(maxHeight: .infinity)
                                .transition(.move(edge: .trailing))
                        }
                    } else {
                        VStack(spacing: 0) {
                            Spacer()
                            panel()
                                .frame(maxWidth: .infinity)
                                .frame(height: 320)
                                .transition(.move(edge: .bottom))
                        }
                    }
                }
            }
            .animation(.snappy, value: isPresented)
        }
    }
}

extension View {
    func adaptivePanel<Panel: View>(
        isPresented: Binding<Bool>,
        breakpoint: CGFloat = 700,
        @ViewBuilder panel: @escaping () -> Panel
    ) -> some View {
        modifier(
            AdaptivePanelModifier(
                isPresented: isPresented,
                breakpoint: breakpoint,
                panel: panel
            )
        )
    }
}

struct DashboardView: View {
    @State private var showingFilters = false

    var body: some View {
        DashboardContent()
            .adaptivePanel(isPresented: $showingFilters) {
                FilterPanel()
                    .padding()
                    .background(.regularMaterial)
            }
            .toolbar {
                Button("Filtros", systemImage: "line.3.horizontal.decrease") {
                    showingFilters.toggle()
                }
            }
    }
}
