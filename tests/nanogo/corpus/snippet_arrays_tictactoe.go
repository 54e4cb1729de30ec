var board [3][3]rune
for i := range board {
	for j := range board[i] {
		board[i][j] = '.'
	}
}
moves := [][2]int{{1, 1}, {0, 0}, {2, 2}, {0, 2}, {0, 1}, {2, 1}, {1, 0}, {1, 2}, {2, 0}}
player := 'X'
for _, m := range moves {
	board[m[0]][m[1]] = player
	if player == 'X' {
		player = 'O'
	} else {
		player = 'X'
	}
}
for _, row := range board {
	fmt.Println(string(row[:]))
}
winner := func(b [3][3]rune) rune {
	lines := [][3][2]int{
		{{0, 0}, {0, 1}, {0, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{2, 0}, {2, 1}, {2, 2}},
		{{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}, {2, 1}}, {{0, 2}, {1, 2}, {2, 2}},
		{{0, 0}, {1, 1}, {2, 2}}, {{0, 2}, {1, 1}, {2, 0}},
	}
	for _, l := range lines {
		a, b2, c := b[l[0][0]][l[0][1]], b[l[1][0]][l[1][1]], b[l[2][0]][l[2][1]]
		if a != '.' && a == b2 && b2 == c {
			return a
		}
	}
	return '-'
}
fmt.Printf("winner: %c\n", winner(board))
