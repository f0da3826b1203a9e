package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MetricsHandler serves the Prometheus metrics. It is not on the API's
// routes: it needs no key, so serve gives it a listener of its own
// (serve --metrics-addr, loopback by default).
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{})
}

// metrics are labelled by route pattern and status only: never by key or
// path, which would make the series unbounded.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// series caches each (route, status) pair's children: looking labels
	// up by value hashes them on every request.
	series sync.Map // seriesKey -> *seriesPair
}

type seriesKey struct {
	route  string
	status int
}

type seriesPair struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "prospector_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "prospector_http_request_duration_seconds", Help: "HTTP request latency by route and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "status"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	k := seriesKey{route, status}
	p, ok := m.series.Load(k)
	if !ok {
		code := strconv.Itoa(status)
		p, _ = m.series.LoadOrStore(k, &seriesPair{
			count:    m.requests.WithLabelValues(route, code),
			duration: m.duration.WithLabelValues(route, code),
		})
	}
	pair := p.(*seriesPair)
	pair.count.Inc()
	pair.duration.Observe(d.Seconds())
}
