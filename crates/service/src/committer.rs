//! The worker that commits a fetch's groups of mails, one after another, on
//! one thread for the whole fetch rather than a new thread per group: each
//! thread that allocates gets a heap of its own in the allocator, and the
//! short-lived commit threads of a poll over many games left theirs partly
//! used (issue 13).

use std::sync::mpsc::{Receiver, Sender, channel};

/// A group's commit, to run on the worker.
pub(super) type Job = Box<dyn FnOnce() + Send>;

/// The worker and its queue of jobs.
pub(super) struct Committer {
    jobs: Sender<Job>,
}

impl Committer {
    /// A worker on its own thread, or none if no thread could be had.
    pub(super) fn start() -> Option<Committer> {
        let (jobs, todo) = channel::<Job>();
        std::thread::Builder::new()
            .name("commit".into())
            .spawn(move || {
                // Ends once the poll drops its committer and the queue is empty.
                for job in todo {
                    job();
                }
            })
            .ok()?;
        Some(Committer { jobs })
    }

    /// Queues `work`; the receiver gets its result. With no worker (or a
    /// worker gone) the work runs here and now.
    pub(super) fn run<T: Send + 'static>(
        this: Option<&Committer>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Receiver<T> {
        let (tx, rx) = channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(work());
        });
        match this {
            Some(c) => {
                if let Err(std::sync::mpsc::SendError(job)) = c.jobs.send(job) {
                    job();
                }
            }
            None => job(),
        }
        rx
    }
}

#[cfg(test)]
mod tests {
    use super::Committer;

    /// Jobs run in the order queued, off the caller's thread, and each
    /// result reaches its own receiver; without a worker they run at once.
    #[test]
    fn jobs_run_in_order_on_one_thread_and_answer_each() {
        let c = Committer::start().unwrap();
        let here = std::thread::current().id();
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let rxs: Vec<_> = (0..5)
            .map(|i| {
                let order = order.clone();
                Committer::run(Some(&c), move || {
                    order.lock().unwrap().push(i);
                    std::thread::current().id()
                })
            })
            .collect();
        drop(c);
        let threads: Vec<_> = rxs.iter().map(|r| r.recv().unwrap()).collect();
        assert!(threads.iter().all(|t| *t == threads[0] && *t != here));
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3, 4]);
        let rx = Committer::run(None, || std::thread::current().id());
        assert_eq!(rx.try_recv().unwrap(), here);
    }
}
