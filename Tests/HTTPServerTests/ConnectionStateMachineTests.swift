import Testing

@testable import HTTPServer

/// A clock the tests move by hand: the machine reads no time of its own, every event carries `now`.
private struct MockClock {
    var now: UInt64 = 1_000_000_000
    mutating func advance(seconds: Double) { now &+= UInt64(seconds * 1e9) }
}

private typealias Machine = ConnectionStateMachine
private let second: UInt64 = 1_000_000_000
private let limits = Machine.Limits(
    headerRead: 3 * second, bodyRead: 5 * second, keepAliveIdle: 7 * second, linger: 2 * second, maxRequests: 3)
/// `limits` with a slow reader's share of 1,000 bytes and a grace of 2 s (docs/http.md#slow-readers).
private let shedding = Machine.Limits(
    headerRead: 3 * second, bodyRead: 5 * second, keepAliveIdle: 7 * second, linger: 2 * second, maxRequests: 100,
    slowReaderBytes: 1000, slowReaderGrace: 2 * second)
private let get = Machine.ResponseFraming(isHead: false, version10: false, keepAlive: true)
private let closing = Machine.ResponseFraming(isHead: false, version10: false, keepAlive: false)

/// The connection state machine in isolation: every transition, each timeout driven by a mock clock.
@Suite struct ConnectionStateMachineTests {
    /// Parses one request and answers it once its handler has returned.
    private func roundTrip(
        _ m: inout Machine, _ framing: Machine.ResponseFraming = get, clock: MockClock, buffered: Int = 0
    ) -> Machine.ResponseWrite? {
        let action = m.parsed(.request(framing))
        #expect(action == .dispatch)
        m.dispatchReturned()
        return m.responseReady(now: clock.now, bufferedInputBytes: buffered)
    }

    @Test func aKeepAliveRequestIsDispatchedAnsweredAndReadingResumes() {
        let clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        #expect(m.state == .reading)
        #expect(m.canParse(pendingOutputBytes: 0))
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        #expect(m.state == .awaitingResponse(get, dispatching: true))
        #expect(!m.canParse(pendingOutputBytes: 0))
        m.dispatchReturned()
        #expect(m.state == .awaitingResponse(get, dispatching: false))
        let write = m.responseReady(now: clock.now, bufferedInputBytes: 0)
        #expect(write == .init(isHead: false, version10: false, close: false, resumeParsing: true))
        #expect(m.state == .reading)
        #expect(m.requestCount == 1)
        let afterFlush = m.outputFlushed(parserPhase: .idle, now: clock.now)
        #expect(afterFlush == .none)
        #expect(m.state == .reading)
    }

    @Test func aResponseFromInsideTheHandlerDoesNotResumeParsingItself() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        let write = m.responseReady(now: 1, bufferedInputBytes: 0)
        #expect(write?.resumeParsing == false)
        m.dispatchReturned()
        #expect(m.state == .reading)
        #expect(m.canParse(pendingOutputBytes: 0))
    }

    @Test func aSecondOrStaleResponseIsIgnored() {
        var m = Machine(limits: limits, now: 0)
        let write = m.responseReady(now: 1, bufferedInputBytes: 0)
        #expect(write == nil)
        let write2 = roundTrip(&m, clock: MockClock())
        #expect(write2 != nil)
        let write3 = m.responseReady(now: 2, bufferedInputBytes: 0)
        #expect(write3 == nil)
        #expect(m.state == .reading)
    }

    /// The next pipelined request is parsed only after the previous one has its response, and not while
    /// a megabyte of output waits.
    @Test func pipelinedRequestsWaitBehindTheResponseInOrder() {
        var m = Machine(
            limits: Machine.Limits(
                headerRead: second, bodyRead: second, keepAliveIdle: second, linger: second, maxRequests: 100), now: 0)
        for n in 1...5 {
            #expect(m.canParse(pendingOutputBytes: 0))
            let action = m.parsed(.request(get))
            #expect(action == .dispatch)
            #expect(!m.canParse(pendingOutputBytes: 0))
            m.dispatchReturned()
            let write = m.responseReady(now: UInt64(n), bufferedInputBytes: 500)
            #expect(write?.close == false)
            #expect(m.requestCount == n)
        }
        #expect(m.canParse(pendingOutputBytes: Machine.stopParsingAbovePendingBytes - 1))
        #expect(!m.canParse(pendingOutputBytes: Machine.stopParsingAbovePendingBytes))
    }

    @Test func headAndHTTP10FramingReachTheEncoder() {
        var m = Machine(limits: limits, now: 0)
        let head = Machine.ResponseFraming(isHead: true, version10: true, keepAlive: true)
        let write = roundTrip(&m, head, clock: MockClock())
        #expect(write == .init(isHead: true, version10: true, close: false, resumeParsing: true))
    }

    /// An HTTP/1.0 request without `Connection: keep-alive` (or any `Connection: close`) arrives with
    /// `keepAlive` false: the response closes; with nothing buffered behind it, a plain close.
    @Test func connectionCloseClosesAfterTheResponseIsWritten() {
        let clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let http10 = Machine.ResponseFraming(isHead: false, version10: true, keepAlive: false)
        let write = roundTrip(&m, http10, clock: clock)
        #expect(write == .init(isHead: false, version10: true, close: true, resumeParsing: true))
        #expect(m.state == .closingAfterFlush(linger: false))
        #expect(!m.canParse(pendingOutputBytes: 0))
        let afterFlush = m.outputFlushed(parserPhase: .idle, now: clock.now)
        #expect(afterFlush == .close)
        #expect(m.state == .closed)
    }

    @Test func connectionCloseWithBytesBufferedBehindItLingers() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let write = roundTrip(&m, closing, clock: clock, buffered: 40)
        #expect(write?.close == true)
        #expect(m.state == .closingAfterFlush(linger: true))
        clock.advance(seconds: 1)
        let afterFlush = m.outputFlushed(parserPhase: .head, now: clock.now)
        #expect(afterFlush == .startLingering)
        #expect(m.state == .lingering(deadline: clock.now + 2 * second))
    }

    /// The `maxRequestsPerConnection`-th response carries `Connection: close` and ends with a lingering
    /// close, even with nothing buffered: the client may still be sending.
    @Test func theLastAllowedRequestEndsWithALingeringClose() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let write = roundTrip(&m, clock: clock)
        #expect(write?.close == false)
        let write2 = roundTrip(&m, clock: clock)
        #expect(write2?.close == false)
        let write3 = roundTrip(&m, clock: clock)
        #expect(write3?.close == true)
        #expect(m.state == .closingAfterFlush(linger: true))
        let afterFlush = m.outputFlushed(parserPhase: .idle, now: clock.now)
        #expect(afterFlush == .startLingering)
        #expect(m.isLingering)
        #expect(m.bytesReceived() == .discard)
        let afterFlush2 = m.outputFlushed(parserPhase: .idle, now: clock.now)
        #expect(afterFlush2 == .none)
        clock.advance(seconds: 1.9)
        let onTick = m.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick == .none)
        clock.advance(seconds: 0.1)
        let onTick2 = m.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick2 == .close)
        #expect(m.state == .closed)
    }

    @Test func thePeerClosingWhileLingeringCloses() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.error)
        #expect(action == .writeErrorAndClose)
        let afterFlush = m.outputFlushed(parserPhase: .failed, now: 1)
        #expect(afterFlush == .startLingering)
        let onPeerClose = m.peerClosedInput(parserPhase: .failed, hasPendingOutput: false)
        #expect(onPeerClose == .close)
        #expect(m.state == .closed)
    }

    @Test func expectContinueIsAnsweredAndReadingGoesOn() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.expectContinue)
        #expect(action == .writeContinue)
        #expect(m.state == .reading)
        #expect(m.canParse(pendingOutputBytes: 25))
        let action2 = m.parsed(.request(get))
        #expect(action2 == .dispatch)
    }

    /// A body refused under `Expect: 100-continue` (413 from the parser before any body byte) and any
    /// other parse error: the error response, no further parsing, then a lingering close.
    @Test func aParseErrorWritesTheErrorAndLingers() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.error)
        #expect(action == .writeErrorAndClose)
        #expect(m.state == .closingAfterFlush(linger: true))
        #expect(!m.canParse(pendingOutputBytes: 0))
        m.parsingPaused(parserPhase: .failed, now: 1)
        #expect(m.state == .closingAfterFlush(linger: true))
        let afterFlush = m.outputFlushed(parserPhase: .failed, now: 1)
        #expect(afterFlush == .startLingering)
        #expect(m.state == .lingering(deadline: 1 + 2 * second))
    }

    @Test func aParseErrorAfterThePeerClosedClosesAtOnce() {
        var m = Machine(limits: limits, now: 0)
        let onPeerClose = m.peerClosedInput(parserPhase: .head, hasPendingOutput: false)
        #expect(onPeerClose == .parse)
        let action = m.parsed(.error)
        #expect(action == .writeErrorAndClose)
        let afterFlush = m.outputFlushed(parserPhase: .failed, now: 1)
        #expect(afterFlush == .close)
    }

    @Test func theHeaderReadTimeoutRunsFromTheFirstByteOfTheHead() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let write = roundTrip(&m, clock: clock)
        #expect(write?.close == false)
        clock.advance(seconds: 5)
        m.parsingPaused(parserPhase: .head, now: clock.now)
        clock.advance(seconds: 2)
        m.parsingPaused(parserPhase: .head, now: clock.now)  // more bytes of the same head: no restart
        let onTick = m.timerFired(now: clock.now, parserPhase: .head, hasPendingOutput: false)
        #expect(onTick == .none)
        clock.advance(seconds: 1)
        let onTick2 = m.timerFired(now: clock.now, parserPhase: .head, hasPendingOutput: false)
        #expect(onTick2 == .timeout(.headerRead))
        #expect(m.state == .closingAfterFlush(linger: true))
    }

    @Test func theBodyReadTimeoutRunsFromTheEndOfTheHead() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        m.parsingPaused(parserPhase: .head, now: clock.now)
        clock.advance(seconds: 2)
        m.parsingPaused(parserPhase: .body, now: clock.now)
        clock.advance(seconds: 4.9)
        let onTick = m.timerFired(now: clock.now, parserPhase: .body, hasPendingOutput: false)
        #expect(onTick == .none)
        clock.advance(seconds: 0.1)
        let onTick2 = m.timerFired(now: clock.now, parserPhase: .body, hasPendingOutput: false)
        #expect(onTick2 == .timeout(.bodyRead))
    }

    /// After a response the connection may stay silent for the keep-alive idle timeout, then closes
    /// without a response; a connection that never sent a byte gets the header timeout.
    @Test func anIdleConnectionClosesSilently() {
        var clock = MockClock()
        var fresh = Machine(limits: limits, now: clock.now)
        var used = Machine(limits: limits, now: clock.now)
        clock.advance(seconds: 1)
        let write = roundTrip(&used, clock: clock)
        #expect(write != nil)
        clock.advance(seconds: 2)
        let onTick = fresh.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick == .close)
        let onTick2 = used.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick2 == .none)
        clock.advance(seconds: 4.9)
        let onTick3 = used.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick3 == .none)
        clock.advance(seconds: 0.1)
        let onTick4 = used.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick4 == .close)
        #expect(used.state == .closed)
    }

    /// A client that stops reading: each bit of write progress restarts the count; none for the idle
    /// timeout closes, whatever else the connection is doing.
    @Test func noWriteProgressForTheIdleTimeoutCloses() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let write = roundTrip(&m, clock: clock)
        #expect(write != nil)
        clock.advance(seconds: 6)
        m.outputProgressed(now: clock.now)
        clock.advance(seconds: 6.9)
        let onTick = m.timerFired(now: clock.now, parserPhase: .head, hasPendingOutput: true)
        #expect(onTick == .none)
        clock.advance(seconds: 0.1)
        let onTick2 = m.timerFired(now: clock.now, parserPhase: .head, hasPendingOutput: true)
        #expect(onTick2 == .writeStalled)
        #expect(m.state == .closed)
    }

    /// docs/http.md#slow-readers: a client holding more than its share of unsent bytes is shed after the
    /// grace without write progress; below its share it keeps the idle timeout; progress restarts the grace.
    @Test func aSlowReaderAboveItsShareIsShedAfterTheGrace() {
        var clock = MockClock()
        var above = Machine(limits: shedding, now: clock.now)
        var below = Machine(limits: shedding, now: clock.now)
        #expect(roundTrip(&above, clock: clock) != nil)
        #expect(roundTrip(&below, clock: clock) != nil)
        clock.advance(seconds: 1.9)
        #expect(
            above.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1001)
                == .none)
        above.outputProgressed(now: clock.now)
        clock.advance(seconds: 1.9)
        #expect(
            above.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1001)
                == .none)
        clock.advance(seconds: 0.1)
        #expect(
            above.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1001)
                == .shed)
        #expect(above.state == .closed)
        #expect(
            below.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1000)
                == .none)
        clock.advance(seconds: 3.1)
        #expect(
            below.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1000)
                == .writeStalled)
    }

    /// A client that stops reading and sends a small request now and then: the answers queue behind its unsent
    /// bytes and do not restart the count, so it is closed at the idle timeout (and shed after the grace above
    /// its share) like any other client that stops reading. A response to a connection with nothing unsent
    /// starts the count afresh.
    @Test func answersQueuedBehindUnsentBytesDoNotKeepAStalledConnection() {
        func answerQueued(_ m: inout Machine, _ clock: MockClock) {
            #expect(m.parsed(.request(get)) == .dispatch)
            m.dispatchReturned()
            #expect(m.responseReady(now: clock.now, bufferedInputBytes: 0, outputPending: true) != nil)
        }

        // Above its share: a small request answered 1.5 s in does not restart the 2 s grace.
        var clock = MockClock()
        var above = Machine(limits: shedding, now: clock.now)
        #expect(roundTrip(&above, clock: clock) != nil)
        clock.advance(seconds: 1.5)
        answerQueued(&above, clock)
        clock.advance(seconds: 0.5)
        #expect(
            above.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1001)
                == .shed)

        // Below its share: small requests every 1.5 s do not restart the 7 s idle timeout.
        clock = MockClock()
        var below = Machine(limits: shedding, now: clock.now)
        #expect(roundTrip(&below, clock: clock) != nil)
        for _ in 0..<4 {
            clock.advance(seconds: 1.5)
            answerQueued(&below, clock)
        }
        clock.advance(seconds: 0.9)
        #expect(
            below.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1000)
                == .none)
        clock.advance(seconds: 0.1)
        #expect(
            below.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 1000)
                == .writeStalled)

        // A response to a connection with nothing unsent starts the count afresh, however long it was idle.
        var fresh = Machine(limits: shedding, now: clock.now)
        #expect(roundTrip(&fresh, clock: clock) != nil)
        #expect(fresh.outputFlushed(parserPhase: .idle, now: clock.now) == .none)
        clock.advance(seconds: 30)
        #expect(fresh.parsed(.request(get)) == .dispatch)
        fresh.dispatchReturned()
        #expect(fresh.responseReady(now: clock.now, bufferedInputBytes: 0, outputPending: false) != nil)
        clock.advance(seconds: 6.9)
        #expect(
            fresh.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: true, pendingOutputBytes: 10)
                == .none)
    }

    @Test func aSlowHandlerIsNeverTimedOut() {
        var clock = MockClock()
        var m = Machine(limits: limits, now: clock.now)
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        m.dispatchReturned()
        clock.advance(seconds: 100)
        let onTick = m.timerFired(now: clock.now, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick == .none)
        let write = m.responseReady(now: clock.now, bufferedInputBytes: 0)
        #expect(write?.close == false)
    }

    @Test func aFailedParserOnTheTickCloses() {
        var m = Machine(limits: limits, now: 0)
        let onTick = m.timerFired(now: 1, parserPhase: .failed, hasPendingOutput: false)
        #expect(onTick == .close)
    }

    /// The peer half-closes while its request is with the handler: the response still goes out, with
    /// `Connection: close` and a plain close; reading stops.
    @Test func aPeerCloseWhileAResponseIsPendingAnswersThenCloses() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        m.dispatchReturned()
        let onPeerClose = m.peerClosedInput(parserPhase: .idle, hasPendingOutput: false)
        #expect(onPeerClose == .parse)
        #expect(m.peerClosed)
        m.parsingPaused(parserPhase: .idle, now: 1)
        #expect(m.isAwaitingResponse)
        #expect(m.interest(hasPendingOutput: false, bufferedInputBytes: 0) == .init(read: false, write: false))
        let write = m.responseReady(now: 2, bufferedInputBytes: 10)
        #expect(write?.close == true)
        #expect(m.state == .closingAfterFlush(linger: false))
        let afterFlush = m.outputFlushed(parserPhase: .idle, now: 3)
        #expect(afterFlush == .close)
    }

    @Test func aPeerCloseOnAnIdleConnectionClosesAtOnce() {
        var m = Machine(limits: limits, now: 0)
        let onPeerClose = m.peerClosedInput(parserPhase: .idle, hasPendingOutput: false)
        #expect(onPeerClose == .close)
        #expect(m.state == .closed)
    }

    /// A half-close after a partial head: nothing more can come, so the connection closes once its
    /// output is written.
    @Test func aPeerCloseAfterAPartialHeadClosesAfterTheOutput() {
        var m = Machine(limits: limits, now: 0)
        let onPeerClose = m.peerClosedInput(parserPhase: .head, hasPendingOutput: false)
        #expect(onPeerClose == .parse)
        m.parsingPaused(parserPhase: .head, now: 1)
        #expect(m.state == .closingAfterFlush(linger: false))
        let afterFlush = m.outputFlushed(parserPhase: .head, now: 1)
        #expect(afterFlush == .close)
    }

    @Test func shutdownClosesAnIdleConnectionAtOnce() {
        var m = Machine(limits: limits, now: 0)
        let closesAtOnce = m.shutdownBegun(parserPhase: .idle, hasPendingOutput: false)
        #expect(closesAtOnce)
        #expect(m.state == .closed)
    }

    @Test func shutdownClosesALingeringConnectionAtOnce() {
        var m = Machine(limits: limits, now: 0)
        _ = m.parsed(.error)
        _ = m.outputFlushed(parserPhase: .failed, now: 0)
        let closesAtOnce = m.shutdownBegun(parserPhase: .failed, hasPendingOutput: false)
        #expect(closesAtOnce)
    }

    /// A busy connection finishes its response, which says `Connection: close`, then closes plainly.
    @Test func shutdownLetsABusyConnectionFinishItsResponse() {
        var m = Machine(limits: limits, now: 0)
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        m.dispatchReturned()
        let closesAtOnce = m.shutdownBegun(parserPhase: .idle, hasPendingOutput: false)
        #expect(!closesAtOnce)
        #expect(m.isAwaitingResponse)
        let write = m.responseReady(now: 1, bufferedInputBytes: 100)
        #expect(write?.close == true)
        #expect(m.state == .closingAfterFlush(linger: false))
        let afterFlush = m.outputFlushed(parserPhase: .head, now: 2)
        #expect(afterFlush == .close)
    }

    /// Shutdown while a keep-alive response is still being written: closed once it is out; an idle
    /// connection that a tick finds during shutdown closes too.
    @Test func shutdownClosesAKeepAliveConnectionOnceItsOutputIsWritten() {
        var m = Machine(limits: limits, now: 0)
        let write = roundTrip(&m, clock: MockClock())
        #expect(write?.close == false)
        let closesAtOnce = m.shutdownBegun(parserPhase: .idle, hasPendingOutput: true)
        #expect(!closesAtOnce)
        let afterFlush = m.outputFlushed(parserPhase: .idle, now: 1)
        #expect(afterFlush == .close)
        var ticked = Machine(limits: limits, now: 0)
        let closesAtOnce2 = ticked.shutdownBegun(parserPhase: .idle, hasPendingOutput: true)
        #expect(!closesAtOnce2)
        let onTick = ticked.timerFired(now: 1, parserPhase: .idle, hasPendingOutput: false)
        #expect(onTick == .close)
    }

    /// Reading pauses while a response is pending and a lot of input is buffered; writing is watched only
    /// while output is pending.
    @Test func interestFollowsBackPressureAndPendingOutput() {
        var m = Machine(limits: limits, now: 0)
        let many = Machine.pauseReadingAboveBufferedBytes + 1
        #expect(m.interest(hasPendingOutput: false, bufferedInputBytes: many) == .init(read: true, write: false))
        #expect(m.interest(hasPendingOutput: true, bufferedInputBytes: many) == .init(read: false, write: true))
        let action = m.parsed(.request(get))
        #expect(action == .dispatch)
        #expect(m.interest(hasPendingOutput: false, bufferedInputBytes: many) == .init(read: false, write: false))
        #expect(m.interest(hasPendingOutput: false, bufferedInputBytes: 10) == .init(read: true, write: false))
    }
}
