//! A part registered from outside the crate (issue 51): unknown by name until its
//! registry is installed, then used by pipelines like a built-in part, with the same labels
//! on every run. (Its own test binary: installing a registry is process-wide.)

use microagg::data::{load, ColumnSelection};
use microagg::method::Ctx;
use microagg::params::NoParams;
use microagg::partition::Partition;
use microagg::pipeline::Pipeline;
use microagg::registry::Registry;
use microagg::search::kit::PerturbInfo;
use microagg::search::perturb::{Perturb, Workspace};
use std::sync::atomic::AtomicBool;

/// Swap the record with its nearest record in another group.
struct SwapNearest;

impl Perturb for SwapNearest {
    fn name(&self) -> &'static str {
        "swap_nearest"
    }
    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
        let g = p.group_of(r);
        let Some(&j) = ws.nb.of(r).iter().find(|&&j| p.group_of(j as usize) != g) else {
            return false;
        };
        ws.groups.clear();
        ws.groups.extend([g, p.group_of(j as usize)]);
        ws.log.swap(p, ctx.inst, r, j as usize);
        ws.ls.push(r);
        ws.ls.push(j as usize);
        true
    }
}

#[test]
fn an_installed_part_is_found_by_name_and_repeats() {
    let inst = load("gauss:n=300,d=2,clusters=5,seed=8", &ColumnSelection::All).unwrap();
    let params = [r#"ils.perturb=[{"swap_nearest": {}}]"#.to_string()];
    let e = Pipeline::parse("mdav+ils", &params)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("unknown perturbation 'swap_nearest'"), "{e}");
    Registry::builtin()
        .with_perturb(PerturbInfo::with_params(
            "swap_nearest",
            "swap with the nearest record elsewhere",
            |_: NoParams| Box::new(SwapNearest),
        ))
        .unwrap()
        .install();
    let never = AtomicBool::new(false);
    let run = || {
        Pipeline::parse("mdav+ils", &params)
            .unwrap()
            .run_with(&inst, 3, 4, None, Some(300), &never)
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.partition.labels(), b.partition.labels());
    assert!(a.partition.is_feasible(3));
    let stats = a.stages[1].stats.as_ref().unwrap();
    assert!(stats.get("iterations").unwrap() > 0);
    let listed = microagg::render::list::list_text();
    assert!(
        listed.contains("swap_nearest"),
        "list shows the installed part"
    );
}
