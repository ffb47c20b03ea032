import ArgumentScanning
import Resolving
import Testing

@testable import HingeCLI

@Suite struct ResolveWidthOptionTests {
    @Test func widthFlag() throws {
        let env: (String) -> String? = { _ in nil }
        #expect(
            try ResolveCommandOptions.parse(["a", "--format", "svg", "--width", "390"], environment: env).width == 390)
        #expect(try ResolveCommandOptions.parse(["a", "--width=4096"], environment: env).width == 4096)
        #expect(try ResolveCommandOptions.parse(["a"], environment: env).width == nil)
        for bad in ["0", "abc", "5000"] {
            #expect {
                _ = try ResolveCommandOptions.parse(["a", "--width", bad], environment: env)
            } throws: { error in
                (error as? UsageError)?.message.contains("--width: expected an integer from 16 to 4096") == true
            }
        }
    }
}
