# Independent check of proj-pc1, proj-zsum and mhm-pc1 IL with numpy (LAPACK eigh for the
# axis, a plain O(n k^2 d) DP for the optimal cut). Used by tests/mhm_orders.rs:
#   python3 tests/scripts/orders_numpy_check.py tarragona census eia
import numpy as np, sys
def load(name):
    x = np.genfromtxt(f"/work/shared/instances/{name}.csv", delimiter=",", skip_header=1)
    return (x - x.mean(0)) / x.std(0)
def sse_groups(z, order, sizes):
    tot, s = 0.0, 0
    for g in sizes:
        blk = z[order[s:s+g]]; tot += ((blk - blk.mean(0))**2).sum(); s += g
    return tot
def fixed(n, k):
    sizes = [k]*(n//k); sizes[-1] += n % k; return sizes
def optimal(z, order, k):
    n = len(order); best = [np.inf]*(n+1); best[0] = 0.0
    y = z[order]
    for j in range(k, n+1):
        for s in range(k, min(2*k-1, j)+1):
            if best[j-s] < np.inf:
                blk = y[j-s:j]; c = best[j-s] + ((blk-blk.mean(0))**2).sum()
                if c < best[j]: best[j] = c
    return best[n]
for name in sys.argv[1:]:
    z = load(name); n, d = z.shape; sst = (z**2).sum()
    w, v = np.linalg.eigh(z.T @ z / n); a = v[:, -1]
    a = a if a[np.argmax(np.abs(a))] > 0 else -a
    pc = np.argsort(z @ a, kind="stable"); zs = np.argsort(z.sum(1), kind="stable")
    for k in (3, 5, 10):
        print(name, k, "proj-pc1 %.4f" % (100*sse_groups(z, pc, fixed(n, k))/sst),
              "proj-zsum %.4f" % (100*sse_groups(z, zs, fixed(n, k))/sst),
              "mhm-pc1 %.4f" % (100*optimal(z, pc, k)/sst),
              "eig gap %.3f/%.3f" % (w[-1], w[-2]))
