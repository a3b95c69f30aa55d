//! Deterministic pseudo-random instances of the problems, for the tests and the benchmark,
//! drawn as ADBench's generators draw them (`data/gmm/gmm-data-gen.py`, `data/lstm/gen_data.py`,
//! the bundle adjustment files) from a small linear congruential generator, so that no
//! dependency is needed.

/// Knuth's MMIX linear congruential generator: uniform numbers from the top 53 bits.
#[derive(Clone, Debug)]
pub struct Lcg(u64);

impl Lcg {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn uniform(&mut self) -> f64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal, by Box and Muller's transform (one of the pair).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.uniform();
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// An array of `f(self)`.
    pub fn array<const N: usize>(&mut self, mut f: impl FnMut(&mut Self) -> f64) -> [f64; N] {
        core::array::from_fn(|_| f(self))
    }
}

/// An instance of the Gaussian mixture model, drawn as ADBench's `gmm-data-gen.py` draws them:
/// normal `alphas`, `icf` and points, uniform means in `[0, 1)`, Wishart `gamma = 1`, `m = 0`.
#[derive(Clone, Debug)]
pub struct Gmm<const D: usize, const K: usize, const ICF: usize> {
    /// The unnormalised log weights.
    pub alphas: [f64; K],
    /// The means.
    pub means: [[f64; D]; K],
    /// The inverse covariance factors.
    pub icf: [[f64; ICF]; K],
    /// The points.
    pub x: Vec<[f64; D]>,
    /// The Wishart prior's `gamma`.
    pub gamma: f64,
    /// The Wishart prior's `m`.
    pub m: usize,
}

impl<const D: usize, const K: usize, const ICF: usize> Gmm<D, K, ICF> {
    /// `n` points and the parameters, from `seed`; boxed, as the largest instance's parameters
    /// take 1.7 MB.
    pub fn new(n: usize, seed: u64) -> Box<Self> {
        assert_eq!(ICF, super::gmm::icf_len(D), "ICF must be D (D + 1) / 2");
        let mut r = Lcg::new(seed);
        let mut g = Box::new(Gmm {
            alphas: [0.0; K],
            means: [[0.0; D]; K],
            icf: [[0.0; ICF]; K],
            x: Vec::with_capacity(n),
            gamma: 1.0,
            m: 0,
        });
        g.alphas = r.array(Lcg::normal);
        for mean in &mut g.means {
            *mean = r.array(Lcg::uniform);
        }
        for icf in &mut g.icf {
            for e in icf.iter_mut() {
                *e = r.normal();
            }
        }
        for _ in 0..n {
            g.x.push(r.array(Lcg::normal));
        }
        g
    }
}

/// Observations of bundle adjustment: cameras, points, and per observation its camera, its
/// point, its weight and its feature. ADBench's files hold one camera, point, weight and feature
/// replicated; these are drawn around those of `data/ba/test.txt`, each parameter within 10 %.
#[derive(Clone, Debug)]
pub struct Ba {
    /// Cameras `[r1 r2 r3 C1 C2 C3 f u0 v0 k1 k2]`.
    pub cams: Vec<[f64; 11]>,
    /// Points.
    pub points: Vec<[f64; 3]>,
    /// Per observation: camera index, point index.
    pub obs: Vec<(usize, usize)>,
    /// Per observation: its weight.
    pub w: Vec<f64>,
    /// Per observation: the measured feature.
    pub feats: Vec<[f64; 2]>,
}

impl Ba {
    /// `p` observations of `m` points by `n` cameras, from `seed`.
    pub fn new(n: usize, m: usize, p: usize, seed: u64) -> Self {
        const CAM: [f64; 11] = [
            1.797201, 0.590697, -0.635786, 90.859550, 29.361415, 28.777534, 211.628116, -0.284531,
            -14.762924, 0.058931, 0.069976,
        ];
        const POINT: [f64; 3] = [4.173048, 5.586898, 1.403869];
        let mut r = Lcg::new(seed);
        let near = |v: f64, r: &mut Lcg| v * (1.0 + 0.2 * (r.uniform() - 0.5));
        let cams = (0..n).map(|_| CAM.map(|v| near(v, &mut r))).collect();
        let points = (0..m).map(|_| POINT.map(|v| near(v, &mut r))).collect();
        let obs = (0..p).map(|i| (i % n, (i * 7 + i / n) % m)).collect();
        let w = (0..p).map(|_| near(0.417022, &mut r)).collect();
        let feats = (0..p).map(|_| [near(-525.672849, &mut r), near(161.811929, &mut r)]).collect();
        Ba { cams, points, obs, w, feats }
    }
}

/// An instance of the LSTM, drawn as ADBench's `gen_data.py` draws them: parameters and state
/// uniform in `[0, 1)`; the sequence's characters are `B` bits each (random bits here, where
/// ADBench takes a text's characters).
#[derive(Clone, Debug)]
pub struct Lstm<const L: usize, const B: usize> {
    /// `main_params[layer][g][i]`.
    pub main_params: [[[f64; B]; 8]; L],
    /// Input weights, output weights, output biases.
    pub extra_params: [[f64; B]; 3],
    /// `state[layer]`: hidden, cell.
    pub state: [[[f64; B]; 2]; L],
    /// The characters, `B` bits each.
    pub sequence: Vec<[f64; B]>,
}

impl<const L: usize, const B: usize> Lstm<L, B> {
    /// `c` characters and the parameters, from `seed`.
    pub fn new(c: usize, seed: u64) -> Self {
        let mut r = Lcg::new(seed);
        let rows = |r: &mut Lcg| r.array::<B>(Lcg::uniform);
        let main_params = core::array::from_fn(|_| core::array::from_fn(|_| rows(&mut r)));
        let extra_params = core::array::from_fn(|_| rows(&mut r));
        let state = core::array::from_fn(|_| core::array::from_fn(|_| rows(&mut r)));
        let bit = |r: &mut Lcg| if r.uniform() < 0.5 { 0.0 } else { 1.0 };
        let sequence = (0..c).map(|_| r.array::<B>(bit)).collect();
        Lstm { main_params, extra_params, state, sequence }
    }
}
