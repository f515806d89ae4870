//! Independent recomputations on raw values with holes (`None`), shared by the missing-value
//! tests.

/// z-scores of the observed values, per column (population sd), computed here.
pub fn z_of(raw: &[Option<f64>], n: usize, d: usize) -> Vec<Option<f64>> {
    let mut z = vec![None; n * d];
    for j in 0..d {
        let obs: Vec<f64> = (0..n).filter_map(|i| raw[i * d + j]).collect();
        let m = obs.iter().sum::<f64>() / obs.len() as f64;
        let sd = (obs.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / obs.len() as f64).sqrt();
        for i in 0..n {
            z[i * d + j] = raw[i * d + j].map(|v| (v - m) / sd);
        }
    }
    z
}
