use super::*;

fn line(values: &[f64]) -> Instance {
    Instance::from_raw("t", "t", vec!["x".into()], values.to_vec(), "t".into()).unwrap()
}

#[test]
fn order_by_score_breaks_ties_by_index() {
    assert_eq!(order_by_score(&[2.0, 1.0, 2.0, 0.0]), vec![3, 1, 0, 2]);
}

#[test]
fn npn_on_a_line_walks_from_the_extreme() {
    // Centroid 4.2: farthest record is index 4 (value 10), the walk goes down the line.
    let inst = line(&[0.0, 1.0, 3.0, 7.0, 10.0]);
    assert_eq!(
        npn_order(&inst, NpnStart::FarthestFromCentroid),
        vec![4, 3, 2, 1, 0]
    );
    assert_eq!(
        npn_order(&inst, NpnStart::FarthestFromFarthest),
        vec![0, 1, 2, 3, 4]
    );
}

#[test]
fn pc1_of_two_perfectly_correlated_columns_is_the_diagonal() {
    let raw = [1.0, 2.0, 2.0, 4.0, 3.0, 6.0, 5.0, 10.0];
    let inst = Instance::from_raw(
        "t",
        "t",
        vec!["a".into(), "b".into()],
        raw.to_vec(),
        "t".into(),
    )
    .unwrap();
    let axis = pc1_axis(&inst);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!(
        (axis[0] - h).abs() < 1e-12 && (axis[1] - h).abs() < 1e-12,
        "{axis:?}"
    );
    assert_eq!(order_by_score(&pc1_scores(&inst)), vec![0, 1, 2, 3]);
}

#[test]
fn group_order_readings_place_groups_and_leftovers() {
    let trace = GroupTrace {
        groups: vec![(vec![0, 1], Side::Front), (vec![5, 4], Side::Back)],
        rest: vec![2, 3],
    };
    let inst = line(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let r = |two_ended: bool, reversed_within| GroupOrderReading {
        sequence: if two_ended {
            Sequence::TwoEnded
        } else {
            Sequence::Creation
        },
        reversed_within,
        leftover: LeftoverPlace::AsBlock,
    };
    assert_eq!(
        trace.order(&inst, 2, r(false, false)),
        vec![0, 1, 5, 4, 2, 3]
    );
    assert_eq!(
        trace.order(&inst, 2, r(true, false)),
        vec![0, 1, 2, 3, 4, 5]
    );
    assert_eq!(
        trace.order(&inst, 2, r(false, true)),
        vec![1, 0, 4, 5, 2, 3]
    );
    // A rest of fewer than k records joins the nearest group's end.
    let trace = GroupTrace {
        groups: vec![(vec![0, 1, 2], Side::Front), (vec![5, 4, 3], Side::Back)],
        rest: vec![],
    };
    let mut t2 = trace.clone();
    t2.groups[1].0.pop();
    t2.rest = vec![3];
    assert_eq!(
        t2.order(&inst, 3, GroupOrderReading::CHOSEN),
        vec![0, 1, 2, 5, 4, 3]
    );
}
/// IMHM's chain: start at the group of the farthest record (ties: lowest index, record 0),
/// go to the group with the nearest centroid, list each group's records by decreasing
/// distance to the next centroid and the last group's by increasing distance to the
/// previous one.
#[test]
fn chain_walks_groups_by_nearest_centroid() {
    let inst = line(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let groups = vec![vec![1, 0], vec![5, 4], vec![3, 2]];
    assert_eq!(chain_order(&inst, &groups), vec![0, 1, 2, 3, 4, 5]);
    let trace = GroupTrace {
        groups: vec![(vec![1, 0], Side::Front), (vec![5, 4], Side::Back)],
        rest: vec![2, 3],
    };
    let chain = GroupPathParams {
        path: PathKind::Chain,
    };
    assert_eq!(
        trace.order(&inst, 2, chain.reading()),
        vec![0, 1, 2, 3, 4, 5]
    );
}
/// IMHM's Sort_Centers: groups by increasing centroid distance to the centroid farthest
/// from the mean of the centroids.
#[test]
fn sorted_centers_lists_groups_from_the_extreme_centroid() {
    let inst = line(&[0.0, 1.0, 2.0, 3.0, 4.0, 10.0]);
    // Centroids 0.5, 10 (rest of one record as a group), 3: mean 4.5, farthest is 10.
    let trace = GroupTrace {
        groups: vec![(vec![1, 0], Side::Front), (vec![3, 2, 4], Side::Back)],
        rest: vec![5],
    };
    let reading = GroupOrderReading {
        sequence: Sequence::SortedCenters,
        reversed_within: false,
        leftover: LeftoverPlace::AsBlock,
    };
    assert_eq!(trace.order(&inst, 1, reading), vec![5, 3, 2, 4, 1, 0]);
}
