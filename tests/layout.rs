//! The source's layering, checked from the files themselves: imports run one way, from the plugin
//! through the pipeline to the public types and the geometry, and no two files import each
//! other, directly or round a longer loop.
//!
//! An import is a path that starts from `crate`, `super`, `self` or one of the file's own child
//! modules, in a `use` statement or in the code. A module re-exporting its own children
//! (`pub use child::…`) is the module's front door, not an import, and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path such as `["pipeline", "prepare"]` (empty for the crate root).
type Module = Vec<String>;

/// Every `.rs` file under `src/`, by the module it defines.
fn modules() -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], found: &mut BTreeMap<Module, PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, found);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                let mut module = prefix.to_vec();
                if name != "mod" && name != "lib" {
                    module.push(name);
                }
                found.insert(module, path);
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut found,
    );
    found
}

/// The code of a file without its comments and its `#[cfg(test)]` module (tests may reach
/// anywhere, and a test module may lend its helpers to another's).
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let tests = [
        "#[cfg(test)]\nmod tests",
        "#[cfg(test)]\npub(crate) mod tests",
    ]
    .iter()
    .find_map(|start| text.find(start));
    let text = match tests {
        Some(tests) => &text[..tests],
        None => &text[..],
    };
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The child modules a file declares (`mod name;`).
fn children_declared(code: &str) -> Vec<String> {
    code.split(';')
        .filter_map(|statement| {
            let words: Vec<&str> = statement.split_whitespace().collect();
            let at = words.iter().position(|word| *word == "mod")?;
            (at + 2 == words.len()).then(|| words[at + 1].to_string())
        })
        .collect()
}

/// The module paths a file's code names: `(path, whether it is a re-export)`, each path
/// resolved from `crate`, `super`, `self` or a child module to an absolute module path.
fn paths_named(module: &Module, code: &str) -> Vec<(Module, bool)> {
    // `self` is the file's own module (a `mod.rs` or `lib.rs` is its module's file), `super`
    // its parent.
    let own: Module = module.clone();
    let children = children_declared(code);
    let roots: Vec<String> = ["crate", "super", "self"]
        .into_iter()
        .map(str::to_string)
        .chain(children.iter().cloned())
        .map(|root| format!("{root}::"))
        .collect();
    let mut named = Vec::new();
    for statement in code.split(';') {
        let statement = statement.trim();
        let re_export = statement.starts_with("pub use") || statement.starts_with("pub(crate) use");
        // Every path from one of the roots in the statement, braces expanded one level (enough
        // for this crate's imports).
        let mut rest = statement;
        while let Some(start) = roots
            .iter()
            .filter_map(|root| rest.find(root.as_str()))
            .min()
        {
            let before = rest[..start].chars().last();
            let tail = &rest[start..];
            rest = &tail[1..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // Part of a longer name.
            }
            let path: String = tail
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let mut absolute: Module = match segments.first() {
                Some(&"crate") => Vec::new(),
                Some(&"self") => own.clone(),
                Some(&"super") => own[..own.len().saturating_sub(1)].to_vec(),
                Some(child) => {
                    let mut path = own.clone();
                    path.push(child.to_string());
                    path
                }
                None => continue,
            };
            segments.remove(0);
            while segments.first() == Some(&"super") {
                absolute.pop();
                segments.remove(0);
            }
            absolute.extend(segments.iter().map(|s| s.to_string()));
            named.push((absolute, re_export));
            // `use super::{a, b::c}`: each name inside the braces, from the same base.
            if tail[path.len()..].starts_with('{') {
                let inside = &tail[path.len() + 1..];
                let inside = &inside[..inside.find('}').unwrap_or(inside.len())];
                let base = named.last().unwrap().0.clone();
                for item in inside.split(',') {
                    let item = item.trim();
                    if item.is_empty() || item == "self" {
                        continue;
                    }
                    let mut full = base.clone();
                    full.extend(item.split("::").map(|s| s.trim().to_string()));
                    named.push((full, re_export));
                }
            }
        }
    }
    named
}

/// The file a module path lands in: the longest prefix that is a module of its own.
fn file_of(path: &Module, modules: &BTreeMap<Module, PathBuf>) -> Module {
    (0..=path.len())
        .rev()
        .map(|length| path[..length].to_vec())
        .find(|prefix| modules.contains_key(prefix))
        .unwrap_or_default()
}

/// Which file imports which, re-exports of a `mod.rs`'s own children left out.
fn imports() -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules();
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let mut targets = BTreeSet::new();
        for (named, re_export) in paths_named(module, &code_of(path)) {
            let target = file_of(&named, &modules);
            let child = target.len() > module.len() && target.starts_with(module);
            if target == *module || (re_export && child) {
                continue;
            }
            targets.insert(target);
        }
        graph.insert(module.clone(), targets);
    }
    graph
}

/// The layer a module belongs to: imports may only go to the same or a lower layer.
fn layer(module: &Module) -> u8 {
    match module.first().map(String::as_str) {
        None => 4, // lib.rs: the front door
        Some("plugin" | "debug" | "diagnostics" | "query" | "reenabled") => 3, // wiring, and what reads the pipeline
        Some("pipeline") => 2,                                                 // the stages
        Some("geometry") => 0,                                                 // pure geometry
        Some(_) => 1,                                                          // the public types
    }
}

#[test]
fn imports_run_from_the_plugin_down_to_the_geometry() {
    let graph = imports();
    assert!(graph.len() > 30, "too few files found: {:?}", graph.keys());
    let mut upward = Vec::new();
    for (module, targets) in &graph {
        for target in targets {
            if layer(target) > layer(module) {
                upward.push(format!(
                    "{} imports {}",
                    module.join("::"),
                    target.join("::")
                ));
            }
        }
    }
    assert!(upward.is_empty(), "imports that run upward: {upward:#?}");
}

/// The first import loop found, as the modules round it; `None` when there is none.
fn find_cycle(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    // Depth-first search, with the path walked so far.
    fn visit(
        module: &Module,
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        path: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            return Some(path[start..].to_vec());
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.clone());
        for target in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(target, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    if let Some(cycle) = find_cycle(&imports()) {
        let names: Vec<String> = cycle.iter().map(|m| m.join("::")).collect();
        panic!("an import cycle: {}", names.join(" → "));
    }
}

#[test]
fn the_checker_sees_imports_and_loops() {
    // Imports through `super`, `crate` and child modules are found.
    let graph = imports();
    let module = |path: &str| path.split("::").map(str::to_string).collect::<Module>();
    assert!(graph[&module("pipeline::find_contacts")].contains(&module("pipeline::broad_phase")));
    assert!(graph[&module("pipeline::prepare")].contains(&module("collider")));
    assert!(graph[&module("pipeline")].contains(&module("pipeline::placed")));
    assert!(graph[&module("geometry::sweep")].contains(&module("geometry")));
    // A loop of three is found, and a chain is not one.
    let edges = |pairs: &[(&str, &str)]| {
        let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (from, to) in pairs {
            graph.entry(module(from)).or_default().insert(module(to));
            graph.entry(module(to)).or_default();
        }
        graph
    };
    let looped = edges(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]);
    assert_eq!(find_cycle(&looped).map(|cycle| cycle.len()), Some(3));
    assert_eq!(
        find_cycle(&edges(&[("a", "b"), ("b", "c"), ("a", "c")])),
        None
    );
}
