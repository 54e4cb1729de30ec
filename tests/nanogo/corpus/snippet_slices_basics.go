fruits := []string{"apple", "banana", "cherry"}
fruits = append(fruits, "date")
fmt.Println(fruits, len(fruits), cap(fruits))
fmt.Println(fruits[1:3])
for i, f := range fruits {
	fmt.Println(i, f)
}
