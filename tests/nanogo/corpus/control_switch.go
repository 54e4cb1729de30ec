package main

import "fmt"

func grade(score int) string {
	switch {
	case score >= 90:
		return "A"
	case score >= 80:
		return "B"
	case score >= 70:
		return "C"
	default:
		return "F"
	}
}

func main() {
	for _, s := range []int{95, 85, 72, 10} {
		fmt.Print(grade(s), " ")
	}
	fmt.Println()
	for i := 0; i < 6; i++ {
		switch i {
		case 0:
			fmt.Println("zero")
		case 1, 2:
			fmt.Println("one or two")
		case 3:
			fmt.Println("three, falling")
			fallthrough
		case 4:
			fmt.Println("four (or from three)")
		default:
			fmt.Println("default", i)
		}
	}
	switch x := 5; {
	case x > 3:
		fmt.Println("big")
		fallthrough
	case x > 100:
		fmt.Println("fallthrough ignores condition")
	case x > 1:
		fmt.Println("not reached")
	}
	switch day := "sat"; day {
	case "sat", "sun":
		fmt.Println("weekend")
	default:
		fmt.Println("weekday")
	}
	switch {
	}
	switch c := 'x'; c {
	case 'a', 'e', 'i', 'o', 'u':
		fmt.Println("vowel")
	default:
		fmt.Println("consonant", string(c))
	}
}
