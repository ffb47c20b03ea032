import SwiftUI

// A sheet presented from a sheet: linted, the inner sheet is a chained modal (docs/rules.md#modal-stack).
struct SettingsView: View {
    @State private var showsAccount = false

    var body: some View {
        Form {
            Button("Account") { showsAccount = true }
        }
        .sheet(isPresented: $showsAccount) {
            AccountView()
        }
    }
}

struct AccountView: View {
    @State private var confirmsSignOut = false

    var body: some View {
        NavigationStack {
            Button("Sign out") { confirmsSignOut = true }
                .sheet(isPresented: $confirmsSignOut) {
                    SignOutConfirmation()
                        .presentationDetents([.medium])
                }
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        Button("Close", systemImage: "xmark") {}
                    }
                }
        }
    }
}

struct SignOutConfirmation: View {
    var body: some View {
        VStack {
            Text("Sign out of every device?")
            Button("Sign out", role: .destructive) {}
        }
    }
}
