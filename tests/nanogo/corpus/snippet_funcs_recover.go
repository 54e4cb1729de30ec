func safeDiv(a, b int) (res int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("caught: %v", r)
		}
	}()
	res = a / b
	return
}

fmt.Println(safeDiv(10, 3))
fmt.Println(safeDiv(10, 0))
func() {
	defer func() {
		fmt.Println("recovered:", recover())
	}()
	var arr []int
	fmt.Println(arr[2])
}()
fmt.Println("program continues")
