apply := func(xs []int, f func(int) int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
double := func(x int) int { return x * 2 }
square := func(x int) int { return x * x }
nums := []int{1, 2, 3, 4}
fmt.Println(apply(nums, double), apply(nums, square), apply(apply(nums, double), square))
