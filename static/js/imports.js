// A hand import job's page: poll the job's status JSON every second and move the progress bar
// and the counts; when the job is finished, reload the page, which then lists the lines that
// were not imported. Without JavaScript the page refreshes itself (a <noscript> meta refresh).

const POLL_MS = 1000;
const MAX_WAIT_MS = 10000; // back off to this while the server does not answer

function show(job, status) {
  const bar = job.querySelector("progress");
  if (bar) {
    bar.max = Math.max(status.total, 1);
    bar.value = status.processed;
    bar.textContent = `${status.percent}%`;
  }
  for (const field of job.querySelectorAll("[data-field]")) {
    const value = status[field.dataset.field];
    if (value !== undefined && field.textContent !== String(value)) {
      field.textContent = String(value);
    }
  }
}

async function poll(job, url, wait) {
  let next = POLL_MS;
  try {
    const response = await fetch(url, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const status = await response.json();
    show(job, status);
    if (status.finished) {
      window.location.reload();
      return;
    }
  } catch (error) {
    next = Math.min(wait * 2, MAX_WAIT_MS);
  }
  window.setTimeout(() => poll(job, url, next), next);
}

const job = document.getElementById("job");
if (job && job.dataset.finished !== "true" && job.dataset.statusUrl) {
  window.setTimeout(() => poll(job, job.dataset.statusUrl, POLL_MS), POLL_MS);
}
