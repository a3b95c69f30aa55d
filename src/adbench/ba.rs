//! ADBench's bundle adjustment: the reprojection error of one observation, a point seen by a
//! camera with a Rodrigues (angle-axis) rotation, a centre, a focal length, a principal point
//! and two radial distortion parameters, weighted by the observation's weight
//! (`computeReprojError` of `src/cpp/shared/ba.h`), and the weight's residual `1 − w²`
//! (`computeZachWeightError`). ADBench's Jacobian is block-sparse: per observation a 2 × 15 block
//! (11 camera parameters, 3 point coordinates, 1 weight) and a 1 × 1 block for the weight's
//! residual. [`manual`] ports ADBench's hand-written blocks (`src/cpp/modules/manual/ba_d.cpp`).
//!
//! The camera is ADBench's `[r1 r2 r3 C1 C2 C3 f u0 v0 k1 k2]`. Differences from the C++:
//! ADBench's helpers (`rodrigues_rotate_point`, `radial_distort`, `project`) write into output
//! arrays; calls of functions returning arrays are outside the macro's subset, so
//! [`reproj_error`] has them inline, on three-element arrays (`ADBench`'s loops over three
//! coordinates are written out). The rotation's branch on `θ² ≠ 0` is kept.
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// The number of camera parameters, ADBench's `BA_NCAMPARAMS`.
pub const NCAMPARAMS: usize = 11;

/// The columns of one observation's block: camera, point, weight.
pub const BLOCK_COLS: usize = NCAMPARAMS + 3 + 1;

/// ADBench's `computeReprojError`: `w · (proj(cam, x) − feat)`, where the projection rotates
/// `x − C` by Rodrigues' formula, divides by depth, distorts radially by
/// `1 + k1 r² + k2 r⁴`, and scales by `f` around `(u0, v0)`.
#[grad(wrt(cam, x, w), jacobian)]
pub fn reproj_error(cam: &[f64; 11], x: &[f64; 3], w: f64, feat_x: f64, feat_y: f64) -> [f64; 2] {
    // Xo = X − C.
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    // rodrigues_rotate_point(&cam[0], Xo, Xcam).
    let sqtheta = cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2];
    let mut xcam = [0.0; 3];
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let costheta = theta.cos();
        let sintheta = theta.sin();
        let theta_inverse = 1.0 / theta;
        let w0 = cam[0] * theta_inverse;
        let w1 = cam[1] * theta_inverse;
        let w2 = cam[2] * theta_inverse;
        let cross0 = w1 * xo[2] - w2 * xo[1];
        let cross1 = w2 * xo[0] - w0 * xo[2];
        let cross2 = w0 * xo[1] - w1 * xo[0];
        let tmp = (w0 * xo[0] + w1 * xo[1] + w2 * xo[2]) * (1.0 - costheta);
        xcam[0] = xo[0] * costheta + cross0 * sintheta + w0 * tmp;
        xcam[1] = xo[1] * costheta + cross1 * sintheta + w1 * tmp;
        xcam[2] = xo[2] * costheta + cross2 * sintheta + w2 * tmp;
    } else {
        xcam[0] = xo[0] + (cam[1] * xo[2] - cam[2] * xo[1]);
        xcam[1] = xo[1] + (cam[2] * xo[0] - cam[0] * xo[2]);
        xcam[2] = xo[2] + (cam[0] * xo[1] - cam[1] * xo[0]);
    }
    // p2e, then radial_distort(&cam[9], proj).
    let p0 = xcam[0] / xcam[2];
    let p1 = xcam[1] / xcam[2];
    let rsq = p0 * p0 + p1 * p1;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    // proj = distorted · f + principal point; err = w · (proj − feat).
    let proj0 = p0 * l * cam[6] + cam[7];
    let proj1 = p1 * l * cam[6] + cam[8];
    [w * (proj0 - feat_x), w * (proj1 - feat_y)]
}

/// ADBench's `computeZachWeightError`: `1 − w²`.
#[grad]
pub fn weight_error(w: f64) -> f64 {
    1.0 - w * w
}

/// ADBench's hand-written Jacobian blocks (`src/cpp/modules/manual/ba_d.cpp`), ported to Rust.
/// Matrices are column-major, as in ADBench: entry `(row, col)` of an `r`-row matrix is
/// `m[col * r + row]`.
pub mod manual {
    use super::NCAMPARAMS;

    /// ADBench's `compute_zach_weight_error_d`: `1 − w²` and its derivative `−2w`.
    pub fn weight_error_d(w: f64) -> (f64, f64) {
        (1.0 - w * w, -2.0 * w)
    }

    /// The cross-product matrix of `v`, column-major (ADBench's `set_cross_mat`).
    fn cross_mat(v: &[f64; 3]) -> [f64; 9] {
        [0.0, v[2], -v[1], -v[2], 0.0, v[0], v[1], -v[0], 0.0]
    }

    /// `x · y` for an `n × m` matrix `x` and an `m × p` matrix `y`, column-major (ADBench's
    /// `mat_mul`).
    fn mat_mul<const N: usize, const M: usize, const P: usize, const NM: usize, const MP: usize>(
        x: &[f64; NM],
        y: &[f64; MP],
        out: &mut [f64],
    ) {
        for i in 0..N {
            for j in 0..P {
                let mut rij = 0.0;
                for k in 0..M {
                    rij += x[k * N + i] * y[j * M + k];
                }
                out[j * N + i] = rij;
            }
        }
    }

    fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// ADBench's `rodrigues_rotate_point_d`: the rotated point, and its derivatives in the
    /// rotation (`rot_d`) and in the point (`x_d`), 3 × 3 column-major.
    fn rodrigues_rotate_point_d(rot: &[f64; 3], x: &[f64; 3]) -> ([f64; 3], [f64; 9], [f64; 9]) {
        let sqtheta = dot(rot, rot);
        let mut rotated = [0.0; 3];
        let mut rot_d = [0.0; 9];
        let mut x_d;
        if sqtheta != 0.0 {
            let theta = sqtheta.sqrt();
            let costheta = theta.cos();
            let sintheta = theta.sin();
            let theta_inverse = 1.0 / theta;
            let w = rot.map(|r| r * theta_inverse);
            // w_d = rot · (−w / θ²)ᵀ + I / θ.
            let mut tmp_d = w.map(|e| e * -theta_inverse * theta_inverse);
            let mut w_d = [0.0; 9];
            mat_mul::<3, 1, 3, 3, 3>(rot, &tmp_d, &mut w_d);
            for i in 0..3 {
                w_d[i * 3 + i] += theta_inverse;
            }
            let w_cross_x = cross(&w, x);
            let w_dot_x = dot(&w, x);
            let tmp = (1.0 - costheta) * w_dot_x;
            let x_scaled = x.map(|e| e * (1.0 - costheta));
            mat_mul::<1, 3, 3, 3, 9>(&x_scaled, &w_d, &mut tmp_d);
            for i in 0..3 {
                tmp_d[i] += w_dot_x * sintheta * w[i];
            }
            for i in 0..3 {
                rotated[i] = costheta * x[i] + sintheta * w_cross_x[i] + tmp * w[i];
            }
            let mut m = cross_mat(x);
            for e in m.iter_mut() {
                *e *= -sintheta;
            }
            for i in 0..3 {
                m[i * 3 + i] = tmp;
            }
            let acc: [f64; 3] = core::array::from_fn(|i| costheta * w_cross_x[i] - sintheta * x[i]);
            mat_mul::<3, 1, 3, 3, 3>(&acc, &w, &mut rot_d);
            let mut accm = [0.0; 9];
            mat_mul::<3, 3, 3, 9, 9>(&m, &w_d, &mut accm);
            for i in 0..9 {
                rot_d[i] += accm[i];
            }
            mat_mul::<3, 1, 3, 3, 3>(&w, &tmp_d, &mut accm);
            for i in 0..9 {
                rot_d[i] += accm[i];
            }
            x_d = cross_mat(&w);
            for e in x_d.iter_mut() {
                *e *= sintheta;
            }
            let acc = w.map(|e| e * (1.0 - costheta));
            mat_mul::<3, 1, 3, 3, 3>(&acc, &w, &mut accm);
            for i in 0..9 {
                x_d[i] += accm[i];
            }
            for i in 0..3 {
                x_d[i * 3 + i] += costheta;
            }
        } else {
            rot_d = cross_mat(x).map(|e| -e);
            x_d = cross_mat(rot);
            mat_mul::<3, 3, 1, 9, 3>(&x_d, x, &mut rotated);
            for i in 0..3 {
                rotated[i] += x[i];
                x_d[i * 3 + i] += 1.0;
            }
        }
        (rotated, rot_d, x_d)
    }

    /// ADBench's `radial_distort_d`: distorts `proj` in place and returns the derivatives of
    /// the distorted point in the undistorted one and in the two parameters, 2 × 2 column-major.
    fn radial_distort_d(rad: &[f64], proj: &mut [f64; 2]) -> ([f64; 4], [f64; 4]) {
        let rsq = proj[0] * proj[0] + proj[1] * proj[1];
        let l = 1.0 + rad[0] * rsq + rad[1] * rsq * rsq;
        let coef = 2.0 * rad[0] + 4.0 * rad[1] * rsq;
        let proj_d = [
            coef * proj[0] * proj[0] + l,
            coef * proj[1] * proj[0],
            coef * proj[0] * proj[1],
            coef * proj[1] * proj[1] + l,
        ];
        let rad_d = [rsq * proj[0], rsq * proj[1], rsq * rsq * proj[0], rsq * rsq * proj[1]];
        proj[0] *= l;
        proj[1] *= l;
        (proj_d, rad_d)
    }

    /// ADBench's `project_d`: the projection of `x` by `cam`, and its 2 × 15 Jacobian block in
    /// `j` (the weight's column left alone).
    fn project_d(cam: &[f64; NCAMPARAMS], x: &[f64; 3], j: &mut [f64; 30]) -> [f64; 2] {
        let rot = [cam[0], cam[1], cam[2]];
        let f = cam[6];
        let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
        let (xcam, rodri_rot_d, rodri_xo_d) = rodrigues_rotate_point_d(&rot, &xo);
        let mut proj = [xcam[0] / xcam[2], xcam[1] / xcam[2]];
        let (distort_proj_d, distort_rad_d) = radial_distort_d(&cam[9..], &mut proj);
        let tmp = 1.0 / (xcam[2] * xcam[2]);
        let hnorm_right_col = [-xcam[0] * tmp, -xcam[1] * tmp];
        let mut distort_hnorm_d = [0.0; 6];
        for i in 0..4 {
            distort_hnorm_d[i] = distort_proj_d[i] / xcam[2];
        }
        distort_hnorm_d[4] =
            distort_proj_d[0] * hnorm_right_col[0] + distort_proj_d[2] * hnorm_right_col[1];
        distort_hnorm_d[5] =
            distort_proj_d[1] * hnorm_right_col[0] + distort_proj_d[3] * hnorm_right_col[1];
        mat_mul::<2, 3, 3, 6, 9>(&distort_hnorm_d, &rodri_rot_d, &mut j[0..6]);
        for e in &mut j[0..6] {
            *e *= f;
        }
        mat_mul::<2, 3, 3, 6, 9>(&distort_hnorm_d, &rodri_xo_d, &mut j[6..12]);
        for e in &mut j[6..12] {
            *e *= -f;
        }
        j[12] = proj[0];
        j[13] = proj[1];
        j[14..18].copy_from_slice(&[1.0, 0.0, 0.0, 1.0]);
        for i in 0..4 {
            j[18 + i] = distort_rad_d[i] * f;
        }
        for i in 0..6 {
            j[22 + i] = -j[6 + i];
        }
        [proj[0] * f + cam[7], proj[1] * f + cam[8]]
    }

    /// ADBench's `compute_reproj_error_d`: the weighted reprojection error and its 2 × 15
    /// Jacobian block, column-major (columns: 11 camera parameters, 3 point coordinates, the
    /// weight).
    pub fn reproj_error_d(
        cam: &[f64; NCAMPARAMS],
        x: &[f64; 3],
        w: f64,
        feat_x: f64,
        feat_y: f64,
    ) -> ([f64; 2], [f64; 30]) {
        let mut j = [0.0; 30];
        let proj = project_d(cam, x, &mut j);
        j[28] = proj[0] - feat_x;
        j[29] = proj[1] - feat_y;
        let err = [w * j[28], w * j[29]];
        for e in &mut j[..28] {
            *e *= w;
        }
        (err, j)
    }
}
