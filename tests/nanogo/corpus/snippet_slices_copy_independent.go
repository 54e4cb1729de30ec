a := []int{1, 2, 3}
b := make([]int, len(a))
copy(b, a)
b[0] = 100
fmt.Println(a, b)
c := a
c[0] = 100
fmt.Println(a, c)
arr := [3]int{1, 2, 3}
arr2 := arr
arr2[0] = 100
fmt.Println(arr, arr2)
