var scores [5]int
for i := range scores {
	scores[i] = (i + 1) * 10
}
fmt.Println(scores, len(scores))
copyOf := scores
copyOf[0] = -1
fmt.Println(scores[0], copyOf[0])
grid := [2][3]string{{"a", "b", "c"}, {"d", "e", "f"}}
fmt.Println(grid, grid[1][2])
primes := [...]int{2, 3, 5, 7, 11}
fmt.Printf("%T %v\n", primes, primes[1:4])
