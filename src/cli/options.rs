//! Options written before the command: `urnreg --db reg.db ns list` means
//! `urnreg ns list --db reg.db`, as cargo and gh take theirs in either
//! place. `--color` and `--server` are global in clap already; `--db`,
//! `--format` and `--actor` belong to the commands that take them, so they
//! are moved after the command's name before clap parses, and one the
//! command does not take is refused naming the command.

use std::ffi::{OsStr, OsString};

use super::UsageError;

/// The commands' own options that may also be written before the command.
const MOVABLE: &[&str] = &["db", "format", "actor"];

/// clap's global options that take a value (skipped over, left in place).
const GLOBAL_WITH_VALUE: &[&str] = &["color", "server"];

/// The long name of `arg` (without `--` and any `=value`), and whether a
/// value is attached.
fn long_name(arg: &OsStr) -> Option<(&str, bool)> {
    let text = arg.to_str()?.strip_prefix("--")?;
    match text.split_once('=') {
        Some((name, _)) => Some((name, true)),
        None => Some((text, false)),
    }
}

/// `args` with the movable options found before the command's last
/// subcommand name moved right after that name. Arguments after the
/// command's name, and everything after `--`, are left as they are.
///
/// # Errors
///
/// A movable option that the command does not take, or one without its
/// value.
pub fn hoist(args: Vec<OsString>, cli: &clap::Command) -> Result<Vec<OsString>, UsageError> {
    let mut moved: Vec<OsString> = Vec::new();
    let mut kept: Vec<OsString> = Vec::with_capacity(args.len());
    let mut current = cli;
    let mut path: Vec<String> = Vec::new();
    let mut leaf_at = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if i == 0 {
            kept.push(arg.clone());
            i += 1;
            continue;
        }
        if arg == "--" {
            break;
        }
        match long_name(arg) {
            Some((name, attached)) if MOVABLE.contains(&name) => {
                moved.push(arg.clone());
                if !attached {
                    let value = args.get(i + 1).ok_or_else(|| {
                        UsageError(format!("--{name} needs a value (written before the command)"))
                    })?;
                    moved.push(value.clone());
                    i += 1;
                }
                i += 1;
                continue;
            }
            Some((name, false)) if GLOBAL_WITH_VALUE.contains(&name) => {
                kept.extend(args[i..(i + 2).min(args.len())].iter().cloned());
                i += 2;
                continue;
            }
            _ => {}
        }
        let text = arg.to_string_lossy();
        if text.starts_with('-') {
            kept.push(arg.clone());
            i += 1;
            continue;
        }
        // A command name: descend, or stop at a command without
        // subcommands (what follows is its own).
        match current.find_subcommand(&*text) {
            Some(sub) => {
                kept.push(arg.clone());
                path.push(sub.get_name().to_string());
                current = sub;
                i += 1;
                if !current.has_subcommands() {
                    leaf_at = Some(kept.len());
                    break;
                }
                // A command that runs with or without a subcommand
                // (`urnreg keywords`, `urnreg keywords add`) takes the
                // options itself unless a subcommand follows.
                if current
                    .get_arguments()
                    .any(|a| a.get_long().is_some_and(|l| MOVABLE.contains(&l)))
                {
                    leaf_at = Some(kept.len());
                }
            }
            None => break,
        }
    }
    if moved.is_empty() {
        return Ok(args);
    }
    let Some(at) = leaf_at else {
        // No command was named: let clap say what is missing.
        return Ok(args);
    };
    for arg in &moved {
        if let Some((name, _)) = long_name(arg)
            && MOVABLE.contains(&name)
            && !current.get_arguments().any(|a| a.get_long() == Some(name))
        {
            return Err(UsageError(format!(
                "'urnreg {}' does not take --{name} (see 'urnreg {} --help')",
                path.join(" "),
                path.join(" ")
            )));
        }
    }
    let mut out = kept;
    let rest: Vec<OsString> = args[i..].to_vec();
    out.truncate(at);
    out.extend(moved);
    out.extend(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn hoisted(args: &str) -> Result<String, String> {
        let args: Vec<OsString> = args.split(' ').map(OsString::from).collect();
        hoist(args, &crate::cli::Cli::command())
            .map(|a| {
                a.iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .map_err(|e| e.0)
    }

    #[test]
    fn options_before_the_command_move_after_it() {
        assert_eq!(
            hoisted("urnreg --db r.db ns list").unwrap(),
            "urnreg ns list --db r.db"
        );
        assert_eq!(
            hoisted("urnreg --db=r.db --format json ns show isbn").unwrap(),
            "urnreg ns show --db=r.db --format json isbn"
        );
        assert_eq!(
            hoisted("urnreg --color never --actor ann init").unwrap(),
            "urnreg --color never init --actor ann"
        );
        assert_eq!(
            hoisted("urnreg ns --db r.db list --format json").unwrap(),
            "urnreg ns list --db r.db --format json"
        );
        // Already after the command, or nothing to move: unchanged.
        assert_eq!(
            hoisted("urnreg --db r.db keywords").unwrap(),
            "urnreg keywords --db r.db"
        );
        assert_eq!(
            hoisted("urnreg --db r.db keywords add k --purpose p").unwrap(),
            "urnreg keywords add --db r.db k --purpose p"
        );
        for same in ["urnreg check --db r.db urn:a:b", "urnreg ns list", "urnreg --db"] {
            if same == "urnreg --db" {
                assert!(hoisted(same).is_err());
            } else {
                assert_eq!(hoisted(same).unwrap(), same);
            }
        }
        // What follows the command is its own, even a value that looks like
        // an option of ours.
        assert_eq!(
            hoisted("urnreg --db r.db check -- --db").unwrap(),
            "urnreg check --db r.db -- --db"
        );
    }

    #[test]
    fn an_option_the_command_does_not_take_is_refused_naming_it() {
        let e = hoisted("urnreg --actor ann ns list").unwrap_err();
        assert_eq!(
            e,
            "'urnreg ns list' does not take --actor (see 'urnreg ns list --help')"
        );
        let e = hoisted("urnreg --db r.db completions bash").unwrap_err();
        assert!(e.contains("'urnreg completions' does not take --db"), "{e}");
    }
}
