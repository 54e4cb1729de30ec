n := 42
fmt.Printf("%d in binary is %b\n", n, n)
fmt.Println(n&1 == 0, n>>1, n<<3)
isPow2 := func(x int) bool { return x > 0 && x&(x-1) == 0 }
for _, v := range []int{1, 6, 16, 1024, 0} {
	fmt.Println(v, isPow2(v))
}
