for _, n := range []int{1, 2, 3, 4} {
	switch n {
	case 1:
		fmt.Println("one")
		fallthrough
	case 2:
		fmt.Println("two-ish")
	case 3:
		fmt.Println("three")
	default:
		fmt.Println("other")
	}
}
hour := 14
switch {
case hour < 12:
	fmt.Println("morning")
case hour < 17:
	fmt.Println("afternoon")
default:
	fmt.Println("evening")
}
