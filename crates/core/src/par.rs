//! Work spread over the machine's cores, for the checks of `umpire verify`
//! that do not depend on each other (entry hashes, signatures: issue 13).

/// `f` applied to consecutive shares of `items`, one share per core and
/// none smaller than `min_share` (so short inputs stay on this thread), the
/// results in the order of the shares. A worker's panic is passed on.
pub fn shares<T: Sync, R: Send>(
    items: &[T],
    min_share: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let share = items.len().div_ceil(cores).max(min_share).max(1);
    if items.len() <= share {
        return vec![f(items)];
    }
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(share)
            .map(|part| scope.spawn(move || f(part)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_item_once_in_order() {
        let items: Vec<u32> = (0..10_000).collect();
        for min in [1, 7, 4_096, 20_000] {
            let parts = shares(&items, min, |p| p.to_vec());
            assert_eq!(parts.concat(), items, "min share {min}");
            assert!(parts.iter().all(|p| !p.is_empty()));
        }
        assert_eq!(shares(&[] as &[u8], 5, |p| p.len()), vec![0]);
    }
}
