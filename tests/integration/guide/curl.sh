# Sign in: the answer's accessToken goes in the Authorization header of later calls.
TOKEN=$(curl -s -X POST "$ORIGIN/api/authentication" \
  -H 'Content-Type: application/json' \
  -d "{\"strategy\":\"local\",\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" \
  | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')

# A page of two industries, in their order, with only their key.
curl -s -G "$ORIGIN/api/industries" \
  -H "Authorization: Bearer $TOKEN" \
  --data-urlencode '$limit=2' \
  --data-urlencode '$sort[order]=1' \
  --data-urlencode '$select[]=key'
