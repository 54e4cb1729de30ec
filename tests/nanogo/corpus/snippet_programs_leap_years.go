isLeap := func(y int) bool {
	return y%4 == 0 && (y%100 != 0 || y%400 == 0)
}
for _, y := range []int{1900, 2000, 2023, 2024, 2100} {
	fmt.Printf("%d: %t\n", y, isLeap(y))
}
