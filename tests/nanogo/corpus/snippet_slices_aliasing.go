original := []int{1, 2, 3, 4, 5}
view := original[1:4]
view[0] = 99
fmt.Println(original, view, len(view), cap(view))
view = append(view, 100)
fmt.Println(original)
view = append(view, 101, 102)
view[1] = -1
fmt.Println(original, view)
