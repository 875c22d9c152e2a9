//! Finds and kills the processes descended from one process, whatever group or session
//! they moved to: the interrupt watcher uses it on the harness, the launcher on itself
//! (a child subreaper, so a contestant's orphans stay its descendants) once the
//! contestant has exited.

/// Kills every process descended from `root` — its whole process group when that is not
/// ours; returns how many it found.
pub(crate) fn kill_descendants_of(root: i32) -> usize {
    kill_below(root, false)
}

/// [`kill_descendants_of`] the harness, but its own launchers (its children running
/// `taskbench __launch`) are asked to end with SIGTERM rather than killed: a launcher then
/// kills its contestant, reaps it and exits, where a launcher killed outright would leave
/// its contestant to init, a zombie until init reaps it (in a container, perhaps never).
pub fn end_descendants_of_harness(root: i32) -> usize {
    kill_below(root, true)
}

fn kill_below(root: i32, spare_launchers: bool) -> usize {
    // SAFETY: getpgrp has no preconditions.
    let own_group = unsafe { libc::getpgrp() };
    let processes = processes();
    let mut descendants = vec![root];
    let mut index = 0;
    while index < descendants.len() {
        let parent = descendants[index];
        descendants.extend(
            processes
                .iter()
                .filter(|p| p.1 == parent)
                .map(|p| p.0)
                .filter(|pid| *pid != root),
        );
        index += 1;
    }
    let found = &descendants[1..];
    // This program's file, read once: a launcher runs it.
    let own = spare_launchers
        .then(|| std::fs::read_link("/proc/self/exe").ok())
        .flatten();
    for &pid in found {
        let (parent, group) = processes
            .iter()
            .find(|p| p.0 == pid)
            .map_or((0, 0), |p| (p.1, p.2));
        // SAFETY: kill has no memory preconditions; a process gone already gives ESRCH.
        unsafe {
            if parent == root && own.as_deref().is_some_and(|own| is_launcher(pid, own)) {
                libc::kill(pid, libc::SIGTERM);
            } else if group > 0 && group != own_group {
                libc::kill(-group, libc::SIGKILL);
            } else {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    found.len()
}

/// Whether `pid` runs `own` (this program's file) as the launcher (`… __launch PROGRAM …`).
fn is_launcher(pid: i32, own: &std::path::Path) -> bool {
    let same_program = std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == own);
    let arguments = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let launch = super::launcher::LAUNCH_ARG.as_bytes();
    same_program && arguments.split(|&b| b == 0).nth(1) == Some(launch)
}

/// (pid, parent, process group) of every process in /proc.
fn processes() -> Vec<(i32, i32, i32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command may hold spaces and parentheses: the fields follow the last ')'.
            let rest = &stat[stat.rfind(')')? + 1..];
            let mut fields = rest.split_whitespace();
            // A zombie is dead already; its parent is about to reap it.
            fields.next().filter(|state| *state != "Z")?;
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some((pid, parent, group))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_in_their_own_groups_are_killed() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30 & wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while processes().iter().filter(|p| p.1 == pid).count() < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the sleeps never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(kill_descendants_of(pid), 2);
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }
}
