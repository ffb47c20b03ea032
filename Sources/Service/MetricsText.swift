import HTTPServer
import Store

/// The Prometheus exposition text. Names follow Prometheus conventions (`_total` counters, base units).
enum MetricsText {
    static func render(context: ServiceContext, server: ServerMetrics?) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for s in samples { out += "\(name)\(s.labels) \(s.value)\n" }
        }
        let routes = context.metrics.snapshot().sorted { $0.key < $1.key }
        var requestSamples: [(String, String)] = []
        for (route, state) in routes {
            for (status, n) in state.byStatus.sorted(by: { $0.key < $1.key }) {
                requestSamples.append(("{route=\"\(escape(route))\",status=\"\(status)\"}", String(n)))
            }
        }
        metric("hinge_http_requests_total", "counter", "Requests answered, by route and status.", requestSamples)
        out +=
            "# HELP hinge_http_request_duration_seconds Time from routing to the response being handed to the server (includes the request-log commit).\n"
        out += "# TYPE hinge_http_request_duration_seconds histogram\n"
        for (route, state) in routes {
            let r = escape(route)
            var cumulative = 0
            for (i, bound) in ServiceMetrics.bucketBounds.enumerated() {
                cumulative += state.buckets[i]
                out += "hinge_http_request_duration_seconds_bucket{route=\"\(r)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "hinge_http_request_duration_seconds_bucket{route=\"\(r)\",le=\"+Inf\"} \(state.count)\n"
            out += "hinge_http_request_duration_seconds_sum{route=\"\(r)\"} \(state.sumSeconds)\n"
            out += "hinge_http_request_duration_seconds_count{route=\"\(r)\"} \(state.count)\n"
        }
        if let s = server {
            metric(
                "hinge_open_connections", "gauge", "Connections open now.",
                [("", String(s.openConnections.load(ordering: .relaxed)))])
            metric(
                "hinge_connections_accepted_total", "counter", "Connections accepted.",
                [("", String(s.acceptedConnections.load()))])
            metric(
                "hinge_connections_refused_total", "counter", "Connections refused at the cap (503).",
                [("", String(s.refusedConnections.load()))])
            metric(
                "hinge_parse_errors_total", "counter", "Requests refused by the HTTP parser.",
                [("", String(s.parseErrors.load()))])
            metric(
                "hinge_timeouts_total", "counter",
                "Connections answered 408 (header or body read timeout) or closed after their response waited "
                    + "unread for the idle timeout.",
                [("", String(s.timeouts.load()))])
            metric(
                "hinge_buffered_bytes", "gauge",
                "Response bytes written by the server and not yet read by their clients.",
                [("", String(s.bufferedResponseBytes.load(ordering: .relaxed)))])
            metric(
                "hinge_connections_shed_total", "counter",
                "Connections closed for holding more than their share of unsent bytes without reading.",
                [("", String(s.shedConnections.load()))])
            metric(
                "hinge_buffered_refusals_total", "counter",
                "Responses replaced by 503 while slow readers held more than --max-buffered-bytes.",
                [("", String(s.refusedForBufferedBytes.load()))])
        }
        metric(
            "hinge_record_failures_total", "counter", "Resolutions answered whose record could not be written.",
            [("", String(context.metrics.recordFailures.load(ordering: .relaxed)))])
        let work = context.work.load
        metric(
            "hinge_work_queue_depth", "gauge", "Heavy requests waiting for a worker thread.",
            [("", String(work.waiting))])
        metric("hinge_work_running", "gauge", "Heavy requests running on worker threads.", [("", String(work.running))])
        metric(
            "hinge_work_refused_total", "counter", "Heavy requests answered 503 because the worker pool was full.",
            [("", String(context.metrics.workRefusals.load(ordering: .relaxed)))])
        let long = context.longWork
        metric(
            "hinge_long_work_running", "gauge", "Reports reading the whole request log, running or waiting.",
            [("", String(long.pool.load.running + long.pool.load.waiting))])
        metric(
            "hinge_long_work_stopped_total", "counter",
            "Reports not made or stopped because their client went away or the server stopped.",
            [("", String(long.stoppedCount))])
        if let store = context.store {
            let c = store.counters
            metric(
                "hinge_request_log_queue_depth", "gauge", "Records waiting for the writer.",
                [("", String(c.queueDepth))])
            metric(
                "hinge_request_log_commits_total", "counter", "Request-log transactions committed.",
                [("", String(c.commits))])
            metric(
                "hinge_request_log_commit_failures_total", "counter", "Request-log transactions that failed.",
                [("", String(c.commitFailures))])
            metric(
                "hinge_request_log_records_written_total", "counter", "Records committed.",
                [("", String(c.recordsWritten))])
            metric(
                "hinge_request_log_records_rejected_total", "counter", "Records refused (queue full or closed).",
                [("", String(c.recordsRejected))])
            metric(
                "hinge_request_log_records_pruned_total", "counter", "Oldest records deleted to honour --max-records.",
                [("", String(c.recordsPruned))])
            metric(
                "hinge_request_log_bytes", "gauge", "Database pages in use, in bytes (what --max-log-bytes bounds).",
                [("", String(c.logBytes))])
            metric(
                "hinge_request_log_body_codec", "gauge",
                "1 for the codec new request-log bodies are stored with (none: uncompressed; postgresql-lz4: "
                    + "PostgreSQL's own column compression).",
                [("{codec=\"\(store.bodyCodec?.tag.name ?? "postgresql-lz4")\"}", "1")])
            metric(
                "hinge_device_cache_size", "gauge", "Device profiles in the in-memory catalog.",
                [("", String(c.deviceCacheSize))])
            metric(
                "hinge_store_healthy", "gauge", "1 when the last request-log commit succeeded.",
                [("", store.isHealthy ? "1" : "0")])
            metric(
                "hinge_store_info", "gauge", "The store's engine and this server's --replica-id (always 1).",
                [("{engine=\"\(store.engineKind)\",replica=\"\(escape(store.replicaID))\"}", "1")])
        }
        return out
    }

    static func escape(_ s: String) -> String {
        var o = ""
        for ch in s {
            switch ch {
            case "\\": o += "\\\\"
            case "\"": o += "\\\""
            case "\n": o += "\\n"
            default: o.append(ch)
            }
        }
        return o
    }
}
