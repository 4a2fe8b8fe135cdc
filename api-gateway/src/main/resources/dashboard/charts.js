// The dashboard's charts: each <div class="chart"> with a <script type="application/json" id="<id>-data"> beside
// it (written by the server, read here as data, never run), drawn with Apache ECharts from the service's jar. A
// chart with data-source is asked for its data again every data-every milliseconds and redrawn.
(function () {
  'use strict';

  function options(spec) {
    return {
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { data: spec.series.map(function (s) { return s.name; }) },
      grid: { left: 56, right: 16, top: 32, bottom: 32 },
      xAxis: { type: 'category', data: spec.labels },
      yAxis: { type: 'value', minInterval: 1 },
      series: spec.series.map(function (s) {
        return { name: s.name, type: spec.type || 'bar', data: s.values, stack: s.stack,
                 itemStyle: s.color ? { color: s.color } : undefined,
                 lineStyle: s.color ? { color: s.color } : undefined };
      })
    };
  }

  function totals(element, spec) {
    spec.series.forEach(function (s) {
      var sum = s.values.reduce(function (a, b) { return a + Number(b); }, 0);
      element.setAttribute('data-total-' + s.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase(), String(sum));
    });
  }

  document.querySelectorAll('.chart').forEach(function (element) {
    var data = document.getElementById(element.id.replace(/-chart$/, '-data'));
    if (!data || typeof echarts === 'undefined') {
      return;
    }
    var spec = JSON.parse(data.textContent);
    var chart = echarts.init(element, null, { renderer: 'canvas' });
    chart.setOption(options(spec));
    totals(element, spec);
    element.setAttribute('data-rendered', 'true');
    window.addEventListener('resize', function () { chart.resize(); });

    var source = element.getAttribute('data-source');
    if (source) {
      var every = Number(element.getAttribute('data-every')) || 5000;
      window.setInterval(function () {
        fetch(source, { credentials: 'same-origin', cache: 'no-store' }).then(function (response) {
          if (response.status === 401) {
            window.location.assign('/dashboard/sign-in');
            return null;
          }
          return response.ok ? response.json() : null;
        }).then(function (fresh) {
          if (fresh) {
            chart.setOption(options(fresh), { notMerge: true });
            totals(element, fresh);
            element.setAttribute('data-updated', new Date().toISOString());
          }
        }).catch(function () { /* the next tick tries again */ });
      }, every);
    }
  });
})();
